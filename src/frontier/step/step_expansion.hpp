#pragma once

// What one thread holds while a step expands: the successors it made, sorted by the part of
// the next generation they belong to, until the parts are aggregated.

#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "frontier/step/choice_plans.hpp"
#include "frontier/step/successor_combiner.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/memory_budget.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "frontier/store/successor_files.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour::frontier_detail {

// Classes between two looks at the stop control.
inline constexpr std::size_t kPollEvery = 4096;

// One thread's successors in a pass: one block list per part of the pass's range (or, when
// the step writes its successors once to range files, a buffer per range), and (several
// ranks) its outbox, one block list per rank. No other thread writes to it, so a successor
// is kept without a lock or an atomic: what threads share is touched once a block (the
// budget) or once kPollEvery classes (the stop flag and the progress counter).
template <int K>
struct Expansion {
  // combine: successors go through the combiner (a step tight for memory, StepPlanner).
  Expansion(std::size_t parts, int rank_count, MemoryBudget& budget, bool combining = false)
      : combine(combining),
        blocks(parts, budget),
        outbox(rank_count > 1 ? rank_count : 0, budget),
        read(&budget),
        plans(&budget, tbb::this_task_arena::max_concurrency()),
        combiner(&budget, tbb::this_task_arena::max_concurrency()) {}
  // Write-once: the successors of parts [0, in_memory) stay in blocks, the rest go to files.
  Expansion(SuccessorFiles& files, const std::vector<std::uint32_t>& range_of,
            std::size_t buffer_entries, int slots, std::size_t in_memory, int rank_count,
            MemoryBudget& budget, bool combining = false)
      : combine(combining),
        blocks(in_memory, budget),
        outbox(rank_count > 1 ? rank_count : 0, budget),
        read(&budget),
        in_memory_parts(in_memory),
        plans(&budget, tbb::this_task_arena::max_concurrency()),
        combiner(&budget, tbb::this_task_arena::max_concurrency()) {
    writer.emplace(files, range_of, buffer_entries, slots, budget);
  }
  // Keeps a successor of part p (the pass's first part: lo); false when out of memory.
  // When combining, equal successors made close together are added up first
  // (SuccessorCombiner), and flush() keeps the rest once the expansion is done.
  [[gnu::always_inline]] bool keep(std::size_t p, std::size_t lo, std::uint64_t key,
                                   const WideCount<K>& count) {
    if (!combine) return keep_now(p, lo, key, count);
    return combiner.add(
        p, key, count, overflow,
        [&](std::size_t q, std::uint64_t k, const WideCount<K>& c)
            __attribute__((always_inline)) { return keep_now(q, lo, k, c); });
  }
  // Keeps what the combiner still holds; false when out of memory.
  bool flush(std::size_t lo) {
    return combiner.flush([&](std::size_t q, std::uint64_t k, const WideCount<K>& c) {
      return keep_now(q, lo, k, c);
    });
  }
  // Written at once: a part's classes come grouped by type pattern (AggregationTable), so
  // the successors of a run of classes go to the same few parts, whose open blocks are in
  // the cache. Staging 64 successors and prefetching their parts' blocks, which paid while
  // successors went to random parts, made a 7x8 count take 1.06x the CPU once they did not
  // (docs/speed.md (grouping.md)).
  [[gnu::always_inline]] bool keep_now(std::size_t p, std::size_t lo, std::uint64_t key,
                                       const WideCount<K>& count) {
    if (writer && p >= in_memory_parts) {
      writer->add(p, key, count);
      return true;
    }
    return blocks.add(p - lo, key, count);
  }
  const bool combine;
  SuccessorBlocks<K> blocks;
  SuccessorBlocks<K> outbox;                 // successors other ranks own, by rank
  ClassBuffer<K> read;                       // a block of `current`, decoded
  std::optional<SuccessorWriter<K>> writer;  // write-once: successors to range files
  std::size_t in_memory_parts = 0;           // write-once: parts kept in blocks all the same
  ChoicePlans plans;                         // the step's plans, by type pattern (budgeted)
  SuccessorCombiner<K> combiner;             // successors not kept yet (budgeted)
  WideCount<K> closed;                       // cycles completed (last step)
  bool overflow = false;
};

// Bytes of each of a thread's `buffers` (one per range file when writing, one when
// reading): a MiB, for sequential I/O, unless all threads' buffers would then hold more
// than a sixteenth of the room (the budget is charged for them).
inline std::uint64_t io_buffer_bytes(std::uint64_t room, std::size_t buffers) {
  const auto threads = static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency());
  const std::uint64_t share = room / (16 * threads * std::max<std::size_t>(buffers, 1));
  return std::clamp<std::uint64_t>(share, std::uint64_t{4} << 10, std::uint64_t{1} << 20);
}

}  // namespace knightstour::frontier_detail
