#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <utility>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/frontier_class.hpp"
#include "frontier/class/live_choices.hpp"
#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/store/memory_budget.hpp"
#include "knightstour/frontier/bit_kernel.hpp"

namespace knightstour {

// The live choices of every class of one type pattern in one step, in for_each_live_choice's
// order, each with its successors' route_hash. A choice gives every class of the pattern a
// successor of one pattern (the edges take the same slots one degree up), so where the
// successors go is planned too, and the step hashes nothing per successor (hashing each
// successor cost 4.5% of 7x8 closed's CPU; docs/speed.md (choice-plans.md)).
// At most 1 + 5 + 10 choices (no edge, one of five candidates, two of them).
struct ChoicePlan {
  static constexpr int kMaxChoices = 16;
  std::uint8_t count = 0;
  std::uint8_t choices[kMaxChoices] = {};  // (i + 1) | (j + 1) << 3; 0: no edge
  std::uint64_t routes[kMaxChoices] = {};  // route_hash of the successors

  static constexpr std::uint8_t encode(int i, int j) {
    return static_cast<std::uint8_t>((i + 1) | ((j + 1) << 3));
  }
  static constexpr int first(std::uint8_t c) { return (c & 7) - 1; }
  static constexpr int second(std::uint8_t c) { return (c >> 3) - 1; }
  // Every class of the pattern has the one successor its own key shifted: no unpack needed.
  bool only_no_edge() const { return count == 1 && choices[0] == 0; }
};

// One thread's plans, by type pattern, for the step it expands: a direct-mapped table of
// 2^12 plans (640 KiB, of which a part's few hundred patterns touch a tenth: they stay in
// the thread's L2 cache). A plan is made from the first class of its pattern that the thread
// meets and replaced when another pattern takes its slot; a step rule other than the last one
// seen empties the table. The rule is told by its address, so a table must not outlive the
// StepRules it has seen (the engine makes one per thread and pass: Expansion). No allocation
// after construction. Given a budget, the table is charged to it while it lives, and where
// the budget's share of one of `threads` threads is below 40 MiB it holds fewer plans, at most
// a 64th of that share (tests and tiny runs: plans are then made more often, nothing else
// changes).
class ChoicePlans {
 public:
  static constexpr int kBits = 12;
  explicit ChoicePlans(MemoryBudget* budget = nullptr, int threads = 1)
      : bits_(budget != nullptr
                  ? bits_for(budget->limit() / static_cast<std::uint64_t>(std::max(threads, 1)))
                  : kBits),
        table_(std::make_unique<Entry[]>(std::size_t{1} << bits_)),
        budget_(budget) {
    if (budget_ != nullptr) budget_->charge(bytes());
  }
  ChoicePlans(ChoicePlans&& other) noexcept
      : bits_(other.bits_),
        table_(std::move(other.table_)),
        rule_(other.rule_),
        made_(other.made_),
        budget_(std::exchange(other.budget_, nullptr)) {}
  ChoicePlans& operator=(ChoicePlans&&) = delete;
  ChoicePlans(const ChoicePlans&) = delete;
  ChoicePlans& operator=(const ChoicePlans&) = delete;
  ~ChoicePlans() {
    if (budget_ != nullptr) budget_->release(bytes());
  }
  // Bytes of the table.
  std::size_t bytes() const { return bytes_of(bits_); }

  template <BitKernel B>
  const ChoicePlan& of(const StepRules& rules, const StepRule& r, std::uint64_t key) {
    if (&r != rule_) {
      for (std::size_t e = 0; e < (std::size_t{1} << bits_); ++e) table_[e].pattern = kNoClass;
      rule_ = &r;
    }
    const std::uint64_t pattern = type_pattern(key, rules.slots);
    Entry& e = table_[pattern_bucket(pattern, bits_)];
    if (e.pattern != pattern) [[unlikely]] {
      e.pattern = pattern;
      e.plan = make_plan<B>(rules, r, key);
      ++made_;
    }
    return e.plan;
  }
  std::uint64_t plans_made() const { return made_; }

 private:
  struct Entry {
    std::uint64_t pattern = kNoClass;  // no key's pattern has its top bit set
    ChoicePlan plan;
  };
  static constexpr std::size_t bytes_of(int bits) {
    return (std::size_t{1} << bits) * sizeof(Entry);
  }
  // The table's size for a thread whose share of the budget is `share` bytes: 2^kBits plans,
  // or fewer (at least 16) so that it takes at most a 64th of the share.
  static int bits_for(std::uint64_t share) {
    int bits = kBits;
    while (bits > 4 && std::uint64_t{64} * bytes_of(bits) > share) --bits;
    return bits;
  }
  template <BitKernel B>
  [[gnu::noinline]] static ChoicePlan make_plan(const StepRules& rules, const StepRule& r,
                                                std::uint64_t key) {
    Frontier s;
    unpack<B>(key, rules.slots, 1, s);
    ChoicePlan plan;
    s.free |= 2u;                                      // the new square, degree 0
    const std::uint32_t in = (1u << rules.slots) - 1;  // the successor's slots
    for_each_live_choice(rules, r, s.free, s.done, [&](int i, int j) {
      std::uint32_t free = s.free, done = s.done;
      if (i >= 0) frontier_detail::link_types(free, done, r.candidates[i]);
      if (j >= 0) frontier_detail::link_types(free, done, r.candidates[j]);
      // The successor's type_pattern: done 01, an end 10.
      const std::uint64_t pattern = frontier_detail::spread<B>(done & in) |
                                    (frontier_detail::spread<B>(~(free | done) & in) << 1);
      plan.routes[plan.count] = class_hash(pattern);
      plan.choices[plan.count++] = ChoicePlan::encode(i, j);
    });
    return plan;
  }
  int bits_;  // the table holds 2^bits_ plans
  std::unique_ptr<Entry[]> table_;
  const StepRule* rule_ = nullptr;
  std::uint64_t made_ = 0;
  MemoryBudget* budget_;
};

// expand() for a class whose pattern's plan is known: the same successors in the same order,
// each emitted with its route_hash (emit(key, route)). A class whose plan is empty, or only
// the no-edge choice, is not unpacked at all.
template <BitKernel B = BitKernel::portable, class Emit, class Close>
inline void expand_planned(const StepRules& rules, const StepRule& r, std::uint64_t key,
                           const ChoicePlan& plan, Emit&& emit, Close&& close) {
  if (plan.count == 0) return;
  if (plan.only_no_edge()) {
    assert(plan.routes[0] == route_hash(shifted_key(key, rules.slots), rules.slots));
    emit(shifted_key(key, rules.slots), plan.routes[0]);
    return;
  }
  // The first choice with an edge links in t, which the unpack wrote beside s, instead of in
  // a copy of s: copying s right after the unpack's byte stores reads them as 16-byte words
  // the CPU cannot forward, and waits for the stores to reach the cache. Without that wait a
  // 7x8 count took 0.958 of the CPU and 6x7 all starts 0.926
  // (docs/speed.md (unpack-twice.md)). Later choices copy s: by then the stores
  // are there (a third copy written by the unpack gained nothing).
  Frontier s, t;
  const std::uint32_t s_closers = unpack_twice<B>(key, rules.slots, 1, s, t);
  s.free |= 2u;  // the new square, degree 0
  t.free = s.free;
  bool t_fresh = true;  // t is still the unpacked class
  for (int c = 0; c < plan.count; ++c) {
    const std::uint64_t route = plan.routes[c];
    auto emit_routed = [&](std::uint64_t next) __attribute__((always_inline)) {
      assert(route == route_hash(next, rules.slots));
      emit(next, route);
    };
    const int i = ChoicePlan::first(plan.choices[c]);
    const int j = ChoicePlan::second(plan.choices[c]);
    if (i < 0 || !t_fresh) {
      frontier_detail::take_choice<B>(rules, r, key, s, s_closers, i, j, emit_routed, close);
    } else {
      t_fresh = false;
      frontier_detail::take_choice_in<B>(rules, r, t, s_closers, i, j, emit_routed, close);
    }
  }
}

}  // namespace knightstour
