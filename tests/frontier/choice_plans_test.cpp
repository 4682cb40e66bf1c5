#include "frontier/step/choice_plans.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <utility>
#include <variant>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/frontier_class.hpp"
#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/store/memory_budget.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "support/frontier_generations.hpp"

namespace knightstour {
namespace {

// A step's successors the long way, as the kernel took them before choices were planned from
// the types: every choice of at most two open candidates, linked with the mates, then every
// rule of StepRule checked on the result. No shortcut (no edges found necessary beforehand,
// no liveness from the types), so it checks those against their definitions.
struct Successors {
  std::vector<std::uint64_t> keys;
  int closed = 0;
  friend bool operator==(const Successors&, const Successors&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Successors& s) {
    os << s.closed << " cycles, successors";
    for (const std::uint64_t k : s.keys) os << ' ' << k;
    return os;
  }
};

Successors reference_successors(const StepRules& rules, const StepRule& r, std::uint64_t key) {
  Successors out;
  const int slots = rules.slots;
  Frontier s;
  unpack(key, slots, 1, s);
  s.free |= 2u;
  const std::uint32_t all = (1u << (slots + 1)) - 1;
  const int n = r.candidate_count;
  auto open = [&](int i) {
    const int u = r.candidates[i];
    if (s.done & (1u << u)) return false;
    return !(u == 0 && r.t_only_first && !(s.free & 1u));
  };
  auto try_choice = [&](int i, int j) {
    const bool takes_t = r.has_t && (i == n - 1 || j == n - 1);
    if (r.t_required && !takes_t) return;
    Frontier t = s;
    std::uint32_t closers = 0;
    bool cycle = false;
    if (i >= 0) cycle = frontier_detail::link(t, closers, r.candidates[i]);
    if (j >= 0) cycle = frontier_detail::link(t, closers, r.candidates[j]) || cycle;
    const std::uint32_t not_done = ~t.done & all;
    if (cycle) {
      if (r.last && not_done == 0) ++out.closed;
      return;
    }
    if (r.last) return;
    // Colour balance: the edge ends the processed squares still need, T's edges aside.
    const int need = std::popcount(not_done & r.colour0) + std::popcount(t.free & r.colour0) -
                     std::popcount(not_done & r.colour1) - std::popcount(t.free & r.colour1) +
                     r.future_imbalance;
    const int t_left = !r.has_t ? 0 : (t.free & 1u) ? 2 : (t.done & 1u) ? 0 : 1;
    const bool balanced = !r.has_t      ? need == 0
                          : rules.odd   ? need == t_left
                          : t_left == 1 ? (need == 1 || need == -1)
                                        : need == 0;
    if (!balanced) return;
    if (not_done & r.no_future) return;
    if (t.free & r.one_future) return;
    int need_t = 0;
    for (int l = 0; l < r.look_count; ++l) {
      const int can = r.looks[l].future + std::popcount(r.looks[l].slots & not_done);
      if (can == 0) return;
      if (can == 1) ++need_t;
    }
    if (need_t > t_left) return;
    out.keys.push_back(pack(t, slots));
  };
  try_choice(-1, -1);
  for (int i = 0; i < n; ++i) {
    if (!open(i)) continue;
    try_choice(i, -1);
    for (int j = i + 1; j < n; ++j) {
      if (open(j)) try_choice(i, j);
    }
  }
  return out;
}

template <BitKernel B>
Successors direct(const StepRules& rules, const StepRule& r, std::uint64_t key) {
  Successors out;
  expand<B>(
      rules, r, key, [&](std::uint64_t s) { out.keys.push_back(s); }, [&] { ++out.closed; });
  return out;
}

// Also counts in `misrouted` the successors whose planned route is not their own route_hash.
template <BitKernel B>
Successors planned(const StepRules& rules, const StepRule& r, std::uint64_t key, ChoicePlans& plans,
                   std::uint64_t& misrouted) {
  Successors out;
  expand_planned<B>(
      rules, r, key, plans.of<B>(rules, r, key),
      [&](std::uint64_t s, std::uint64_t route) {
        out.keys.push_back(s);
        if (route != route_hash(s, rules.slots)) ++misrouted;
      },
      [&] { ++out.closed; });
  return out;
}

// Every class of every generation of a sweep: the planned kernel (one table of plans for
// the whole sweep, so plans are replaced as patterns collide and emptied as steps change),
// the direct kernel and the reference give the same successors in the same order, and the
// same cycles at the last step; every successor's planned route is its route_hash.
template <BitKernel B>
void expect_same_sweep(const Sweep& sweep, const FrontierTarget& target,
                       MemoryBudget* budget = nullptr) {
  const StepRules rules = make_step_rules(sweep, target);
  ChoicePlans plans(budget);
  std::uint64_t keys_checked = 0, successors = 0, misrouted = 0;
  int cycles = 0;
  test::for_each_generation_class(
      sweep, target, rules, [&](int k, const StepRule& rule, std::uint64_t key) {
        const Successors want = reference_successors(rules, rule, key);
        ASSERT_EQ(direct<B>(rules, rule, key), want) << "step " << k << " key " << key;
        ASSERT_EQ(planned<B>(rules, rule, key, plans, misrouted), want)
            << "step " << k << " key " << key;
        ASSERT_EQ(misrouted, 0u) << "step " << k << " key " << key;
        ++keys_checked;
        successors += want.keys.size();
        cycles += want.closed;
      });
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  EXPECT_GT(keys_checked, 1000u);
  EXPECT_GT(successors, keys_checked / 2);
  EXPECT_GT(cycles + static_cast<int>(!target.closed), 0);  // closed sweeps reach their cycles
  EXPECT_GT(plans.plans_made(), 10u);
  EXPECT_LT(plans.plans_made(), keys_checked);
}

template <BitKernel B>
void expect_same_sweeps() {
  expect_same_sweep<B>(Sweep({5, 5}), FrontierTarget{false, std::nullopt});  // open, odd
  expect_same_sweep<B>(Sweep({5, 6}), FrontierTarget{false, std::nullopt});  // open, even
  expect_same_sweep<B>(Sweep({6, 6}), FrontierTarget{true, std::nullopt});   // closed
  expect_same_sweep<B>(Sweep({7, 4}), FrontierTarget{false, 0});             // from a corner
  expect_same_sweep<B>(Sweep({6, 5}), FrontierTarget{false, 13});            // pinned mid-sweep
}

TEST(ChoicePlans, PlannedExpansionEqualsDirectAndReferencePortable) {
  expect_same_sweeps<BitKernel::portable>();
}

TEST(ChoicePlans, PlannedExpansionEqualsDirectAndReferenceBmi2) {
  if (!cpu_has_bmi2()) GTEST_SKIP() << "this CPU has no BMI2";
  expect_same_sweeps<BitKernel::bmi2>();
}

// A table of 64 plans (a budget of 1 MiB): patterns take each other's slots all the time.
TEST(ChoicePlans, PlannedExpansionEqualsReferenceWithASmallTable) {
  MemoryBudget budget(std::uint64_t{1} << 20);
  expect_same_sweep<BitKernel::portable>(Sweep({6, 6}), FrontierTarget{true, std::nullopt},
                                         &budget);
  expect_same_sweep<BitKernel::portable>(Sweep({5, 6}), FrontierTarget{false, std::nullopt},
                                         &budget);
}

// The pattern keeps free, done and end apart, and nothing else: not the mates, not which end
// of a fragment comes first.
TEST(ChoicePlans, TypePatternKeepsDegreesOnly) {
  constexpr int kSlots = 6;
  auto key_of = [&](std::uint32_t free, std::uint32_t done, std::initializer_list<int> mates) {
    Frontier f;
    f.free = free;
    f.done = done;
    const auto* m = mates.begin();
    for (std::uint32_t e = f.ends(kSlots); e != 0; e &= e - 1) f.mate[std::countr_zero(e)] = *m++;
    return pack(f, kSlots);
  };
  // Slot 0 done, 1 free; ends 2..5 paired two ways.
  const std::uint64_t a = key_of(0b000010, 0b000001, {3, 2, 5, 4});
  const std::uint64_t b = key_of(0b000010, 0b000001, {5, 4, 3, 2});
  ASSERT_NE(a, b);
  EXPECT_EQ(type_pattern(a, kSlots), type_pattern(b, kSlots));
  EXPECT_EQ(route_hash(a, kSlots), route_hash(b, kSlots));
  // Slot 1 done instead of free (ends unchanged): another pattern.
  const std::uint64_t c = key_of(0b000000, 0b000011, {3, 2, 5, 4});
  EXPECT_NE(type_pattern(a, kSlots), type_pattern(c, kSlots));
  // Types: done 01, free 00, and every end 10 whether it opens or closes.
  EXPECT_EQ(type_pattern(a, kSlots), 0b10'10'10'10'00'01u);
}

// A table of plans is charged to its budget for as long as it lives, once however it is
// moved (each thread's Expansion holds one for a pass).
TEST(ChoicePlans, ATableIsChargedToItsBudgetWhileItLives) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  std::size_t bytes = 0;
  {
    ChoicePlans plans(&budget);
    bytes = plans.bytes();
    EXPECT_GE(bytes, std::size_t{1} << 19);  // 4,096 plans of over 128 bytes
    EXPECT_EQ(budget.used(), bytes);
    const ChoicePlans moved(std::move(plans));
    EXPECT_EQ(budget.used(), bytes);
    const ChoicePlans unbudgeted;
    EXPECT_EQ(unbudgeted.bytes(), bytes);
    EXPECT_EQ(budget.used(), bytes);
  }
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_EQ(budget.peak(), bytes);
}

// Under a small budget the table takes at most a 64th of a thread's share of it (and holds at
// least 16 plans).
TEST(ChoicePlans, ASmallBudgetGetsASmallTable) {
  for (const std::uint64_t limit : {std::uint64_t{1} << 20, std::uint64_t{3} << 20}) {
    for (const int threads : {1, 4}) {
      MemoryBudget budget(limit);
      const ChoicePlans plans(&budget, threads);
      const std::uint64_t share = limit / static_cast<std::uint64_t>(threads);
      EXPECT_LE(plans.bytes() * 64, share);
      EXPECT_GT(plans.bytes() * 128, share);  // the largest power of two that does
    }
  }
  MemoryBudget tiny(1024);
  EXPECT_EQ(ChoicePlans(&tiny).bytes(), ChoicePlans(nullptr).bytes() >> (ChoicePlans::kBits - 4));
}

}  // namespace
}  // namespace knightstour
