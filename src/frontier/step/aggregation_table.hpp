#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/frontier_class.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// Aggregates the successors of one part of the next generation (the second half of a
// step, after SuccessorBlocks): equal keys' counts are added, and the part comes out in
// compact form (compact_classes.hpp), its classes grouped by type pattern.
// One table per thread, reused part after part; it is sized for one part, so it stays in
// the cache while the part's successors stream through it (open addressing, linear
// probing, at most 2/3 full).
template <int K>
class AggregationTable {
 public:
  // Aggregates every successor of `part` that the threads' blocks hold into `out` (which
  // must be empty), the classes of one type pattern of `slots` slots next to each other
  // (slots 0: in the table's order); `sorted`: in MergeOrder (partial_merge.hpp), grouped
  // alike, for a sliced step's partial parts. Sets `overflow` when a count no longer fits in
  // K limbs.
  // Returns false, leaving `out` empty, when the budget cannot hold the table or the part.
  bool aggregate(const std::vector<const SuccessorBlocks<K>*>& threads, std::size_t part,
                 typename Generation<K>::Part& out, MemoryBudget& budget, bool& overflow,
                 int slots = 0, bool sorted = false) {
    std::uint64_t successors = 0;
    for (const auto* t : threads) successors += t->successors(part);
    if (successors == 0) return true;
    const std::size_t used = table_size(successors);
    if (!fit(used, budget)) return false;
    // Only the first `used` slots: the table keeps the size of the largest part so far, and
    // spreading a smaller part over all of it, and sweeping all of it twice below, made
    // aggregation 1.5x as costly on 7x8 closed once parts went by type pattern (their sizes
    // vary more; docs/speed.md (choice-plans.md)).
    // A class's slot: its key's fibonacci_hash. class_hash's two rounds of multiplying were
    // 2% of a 7x8 count's CPU more (aggregation 21.5% -> 19.3% of it in perf;
    // docs/speed.md (grouping.md)).
    const std::uint64_t mask = used - 1;
    const int bits = std::countr_zero(used);  // used is a power of two, at least 64
    for (const auto* t : threads) {
      t->for_each(part, [&](const typename SuccessorBlocks<K>::Entry& e) {
        std::uint64_t at = fibonacci_hash(e.key, bits);
        while (slots_[at].key != e.key && slots_[at].key != kNoClass) at = (at + 1) & mask;
        Slot& s = slots_[at];
        if (s.key == kNoClass) {
          s.key = e.key;
          s.count = e.count;
        } else if (s.count.add(e.count)) {
          overflow = true;
        }
      });
    }
    // The classes to the table's front first, in slot (hash) order, without a branch per
    // slot: whether a slot is empty is as good as random, and a branch on it mispredicted
    // half the time.
    std::size_t dense = 0;
    for (std::size_t at = 0; at < used; ++at) {
      const Slot s = slots_[at];
      slots_[dense] = s;
      dense += s.key != kNoClass ? 1 : 0;
    }
    const Slot* from = slots_.data();
    if (sorted && (slots == 0 || dense < kGroupFrom || !fit_grouped(dense, budget))) {
      sort_for_merge(dense, slots);
    } else if (slots > 0 && dense >= kGroupFrom) {
      if (fit_grouped(dense, budget)) {
        from = group_by_pattern(dense, slots, sorted);
      } else {
        group_in_place(dense, slots);
      }
    }
    PartWriter<K>& writer = writer_for(slots);
    for (std::size_t i = 0; i < dense; ++i) writer.add(from[i].key, from[i].count);
    clear(used);
    const std::uint64_t scratch = writer.scratch_bytes();
    if (scratch > writer_bytes_) {  // the writer's scratch grows with the largest part
      budget.charge(scratch - writer_bytes_);
      writer_bytes_ = scratch;
    }
    out = writer.finish();
    if (!budget.reserve(out.memory_bytes())) {
      out = ClassPart{};
      return false;
    }
    return true;
  }

  // Buckets of type patterns a part's classes are grouped by (group_by_pattern), which a
  // sliced step's merge orders by too (partial_merge.hpp).
  static constexpr int kBucketBits = 10;

  // Bytes the table and its grouping's copy take for a part of `successors` (step_plan.hpp
  // sizes parts under a tight budget by it).
  static std::uint64_t bytes_for(std::uint64_t successors) {
    const std::uint64_t slots = table_size(successors);
    return (slots + slots - slots / 3) * sizeof(Slot);
  }

  // Bytes the table and its grouping's scratch hold allocated (their capacity: what the
  // process really holds).
  std::uint64_t bytes() const {
    return (slots_.capacity() + grouped_.capacity()) * sizeof(Slot) + writer_bytes_;
  }

  // Gives the table's memory back.
  void release(MemoryBudget& budget) {
    budget.release(bytes());
    free_storage(slots_);
    free_storage(grouped_);
    writer_.reset();
    writer_bytes_ = 0;
  }

 private:
  struct Slot {
    std::uint64_t key = kNoClass;
    WideCount<K> count;
  };

  // Slots for a part of `successors`: at least 3/2 slot a successor, a power of two.
  static std::size_t table_size(std::uint64_t successors) {
    std::size_t want = 64;
    while (want < successors + successors / 2) want *= 2;
    return want;
  }
  // At least `want` slots, within the budget.
  bool fit(std::size_t want, MemoryBudget& budget) {
    if (want <= slots_.size()) return true;
    if (!budget.reserve(want * sizeof(Slot))) return false;
    budget.release(slots_.capacity() * sizeof(Slot));
    slots_.assign(want, Slot{});
    return true;
  }
  // Room for group_by_pattern to copy n classes, within the budget: as many as the largest
  // table so far can hold (table_size fills at most 2/3 of it, so the room is made once).
  // Where the budget cannot hold it, the part is grouped in place, more slowly.
  // The copy is taken only with room left beside it for the part it makes (no more bytes
  // than a slot a class): taking the last of the room for it made the part itself run out,
  // and a step of one part then stopped at a budget that completes without the copy.
  bool fit_grouped(std::size_t n, MemoryBudget& budget) {
    if (n <= grouped_.size()) return true;
    const std::size_t want = std::max(n, slots_.size() - slots_.size() / 3);
    const std::uint64_t beside = n * sizeof(Slot);
    if (!budget.reserve_if_room(want * sizeof(Slot) + beside)) return false;
    budget.release(beside);
    budget.release(grouped_.capacity() * sizeof(Slot));
    free_storage(grouped_);
    grouped_.resize(want);
    return true;
  }

  // Copies the n classes of the dense front to `grouped_` with the classes of one type
  // pattern (type_pattern, frontier_class.hpp) next to each other, and returns it: a
  // counting sort by a hash of the pattern (2^10 buckets), one pass to count the buckets and
  // one to copy each class to its bucket's next place. The next step then expands a
  // pattern's classes one after another: they share one plan (choice_plans.hpp), their
  // branches in the kernel go the same way, and their successors go to the same few parts.
  // The kernel alone ran 9-15% faster on classes in that order
  // (docs/speed.md (choice-plans.md)). An in-place American flag sort did the
  // same with chains of dependent swaps: 7.6% of a 7x8 count's CPU, against 2.6% for this,
  // and whole counts took 0.92-0.93 the CPU (docs/speed.md (grouping.md)).
  const Slot* group_by_pattern(std::size_t n, int slots, bool sorted = false) {
    auto bucket_of = [slots](std::uint64_t key) {
      return pattern_bucket(type_pattern(key, slots), kBucketBits);
    };
    std::array<std::uint32_t, 1u << kBucketBits> next{};
    for (std::size_t i = 0; i < n; ++i) ++next[bucket_of(slots_[i].key)];
    std::uint32_t first = 0;  // each bucket's first place
    for (std::uint32_t& b : next) first += std::exchange(b, first);
    Slot* to = grouped_.data();
    for (std::size_t i = 0; i < n; ++i) to[next[bucket_of(slots_[i].key)]++] = slots_[i];
    // Each bucket by merge_hash (MergeOrder): the table's slots are in fibonacci_hash order
    // but for the classes that probing moved on, so an insertion sort moves few of them.
    if (sorted) {
      std::uint32_t begin = 0;
      for (const std::uint32_t end : next) {
        for (std::uint32_t i = begin + 1; i < end; ++i) {
          const Slot x = to[i];
          const std::uint64_t hx = merge_hash(x.key);
          std::uint32_t j = i;
          while (j > begin && merge_hash(to[j - 1].key) > hx) {
            to[j] = to[j - 1];
            --j;
          }
          to[j] = x;
        }
        begin = end;
      }
    }
    return to;
  }

  // The n classes of the dense front put in the order group_by_pattern gives them (one
  // pattern's classes together), in place: a sort, for a budget with no room for the copy.
  // Grouping is not only for speed: a part out of pattern order takes several times the
  // bytes (compact_classes.hpp).
  void group_in_place(std::size_t n, int slots) {
    std::sort(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(n),
              [slots](const Slot& a, const Slot& b) {
                const std::uint64_t pa = type_pattern(a.key, slots);
                const std::uint64_t pb = type_pattern(b.key, slots);
                const std::size_t ba = pattern_bucket(pa, kBucketBits);
                const std::size_t bb = pattern_bucket(pb, kBucketBits);
                return ba != bb ? ba < bb : pa < pb;
              });
  }

  // The n classes of the dense front in MergeOrder (partial_merge.hpp), in place.
  void sort_for_merge(std::size_t n, int slots) {
    std::sort(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(n),
              [slots](const Slot& a, const Slot& b) {
                const std::size_t ba =
                    slots == 0 ? 0 : pattern_bucket(type_pattern(a.key, slots), kBucketBits);
                const std::size_t bb =
                    slots == 0 ? 0 : pattern_bucket(type_pattern(b.key, slots), kBucketBits);
                return ba != bb ? ba < bb : merge_hash(a.key) < merge_hash(b.key);
              });
  }

  void clear(std::size_t used) {
    for (std::size_t at = 0; at < used; ++at) slots_[at].key = kNoClass;
  }

  // The part's writer, made for the slots of the first part it writes.
  PartWriter<K>& writer_for(int slots) {
    if (!writer_ || writer_slots_ != slots) {
      writer_ = std::make_unique<PartWriter<K>>(slots);
      writer_slots_ = slots;
    }
    return *writer_;
  }

  // Parts of fewer classes are left in table order.
  static constexpr std::size_t kGroupFrom = 2;
  std::vector<Slot> slots_;
  std::vector<Slot> grouped_;  // group_by_pattern's copy, about 2/3 of slots_ (fit)
  std::unique_ptr<PartWriter<K>> writer_;
  int writer_slots_ = 0;
  std::uint64_t writer_bytes_ = 0;  // the writer's scratch, charged to the budget
};

}  // namespace knightstour
