#pragma once

// A thread's successors added up before they are kept: equal successors made close together
// are merged in a small table, so that one of them reaches the blocks (MapReduce's combiner).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/frontier_class.hpp"
#include "frontier/store/memory_budget.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour::frontier_detail {

// Why: a part's classes are expanded grouped by type pattern (AggregationTable), and classes
// of one pattern that differ only in their mates often make the same successor a few
// classes apart. A direct-mapped table of 4096 successors, in the cache, merged 22% of 7x8
// closed's successors at its widest step and 26% of 6x8 open's (30% with 2^20 slots, too big
// for the cache): a fifth fewer bytes in blocks at a step's fullest moment, and a fifth fewer
// successors for the aggregation to add up. A successor that finds its slot taken by another
// pushes that one on to the blocks; flush() pushes on the rest once the expansion is done.
// (results/frontier/combiner.md)
template <int K>
class SuccessorCombiner {
 public:
  // Slots: 4096 of 64-bit counts, fewer of wider ones (about 96 KB), and where the budget's
  // share of one of `threads` threads is small, at most a 64th of that share (tests and tiny
  // runs: fewer successors merged, nothing else changes).
  static constexpr int kBits = K <= 1 ? 12 : K <= 4 ? 11 : 9;

  explicit SuccessorCombiner(MemoryBudget* budget = nullptr, int threads = 1)
      : bits_(budget != nullptr
                  ? bits_for(budget->limit() / static_cast<std::uint64_t>(std::max(threads, 1)))
                  : kBits),
        budget_(budget) {}
  SuccessorCombiner(SuccessorCombiner&& other) noexcept
      : bits_(other.bits_),
        slots_(std::move(other.slots_)),
        budget_(other.budget_),
        held_bytes_(std::exchange(other.held_bytes_, 0)),
        added_(other.added_),
        merged_(other.merged_) {}
  SuccessorCombiner& operator=(SuccessorCombiner&&) = delete;
  SuccessorCombiner(const SuccessorCombiner&) = delete;
  SuccessorCombiner& operator=(const SuccessorCombiner&) = delete;
  ~SuccessorCombiner() { free(); }

  // Adds the successor `key` of part `part`: merged into an equal one held (`overflow` set
  // when the sum outgrows K limbs), or held, pushing the one in its slot on by
  // pass(part, key, count). False when pass does.
  template <class Pass>
  [[gnu::always_inline]] bool add(std::size_t part, std::uint64_t key, const WideCount<K>& count,
                                  bool& overflow, Pass&& pass) {
    if (slots_.empty()) [[unlikely]]
      make();
    Slot& s = slots_[fibonacci_hash(key, bits_)];
    ++added_;
    if (s.key == key) {
      ++merged_;
      if (s.count.add(count)) overflow = true;
      return true;
    }
    const Slot old = s;
    s.key = key;
    s.part = static_cast<std::uint32_t>(part);
    s.count = count;
    return old.key == kNoClass || pass(static_cast<std::size_t>(old.part), old.key, old.count);
  }

  // Pushes every successor held on by pass(part, key, count), and gives the table back
  // (the next add makes it again). False when pass does (the rest are dropped: the pass is
  // abandoned).
  template <class Pass>
  bool flush(Pass&& pass) {
    bool ok = true;
    for (const Slot& s : slots_) {
      if (s.key != kNoClass && ok) ok = pass(static_cast<std::size_t>(s.part), s.key, s.count);
    }
    free();
    return ok;
  }

  // Bytes the table holds now (none before the first add and after a flush).
  std::uint64_t bytes() const { return held_bytes_; }
  // Successors added, and those of them merged into one held, since the combiner was made.
  std::uint64_t added() const { return added_; }
  std::uint64_t merged() const { return merged_; }

 private:
  struct Slot {
    std::uint64_t key = kNoClass;
    std::uint32_t part = 0;
    WideCount<K> count;
  };
  static int bits_for(std::uint64_t share) {
    int bits = kBits;
    while (bits > 4 && std::uint64_t{64} * (sizeof(Slot) << bits) > share) --bits;
    return bits;
  }
  // Once a pass, on a thread's first successor: charged whatever the budget's room (a few
  // KiB under budgets that small).
  [[gnu::noinline]] void make() {
    slots_.assign(std::size_t{1} << bits_, Slot{});
    held_bytes_ = slots_.size() * sizeof(Slot);
    if (budget_ != nullptr) budget_->charge(held_bytes_);
  }
  void free() {
    if (budget_ != nullptr) budget_->release(held_bytes_);
    held_bytes_ = 0;
    std::vector<Slot>().swap(slots_);
  }

  int bits_;
  std::vector<Slot> slots_;
  MemoryBudget* budget_;
  std::uint64_t held_bytes_ = 0;  // charged to the budget
  std::uint64_t added_ = 0;
  std::uint64_t merged_ = 0;
};

}  // namespace knightstour::frontier_detail
