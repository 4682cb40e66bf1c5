#pragma once

// One step of a frontier sweep: every class of a generation expanded into the next.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "frontier/step/step_core.hpp"
#include "frontier/step/step_in_ranges.hpp"
#include "frontier/step/step_in_slices.hpp"
#include "frontier/step/step_layout.hpp"
#include "frontier/step/step_plan.hpp"
#include "frontier/store/freed_memory.hpp"

namespace knightstour::frontier_detail {

// One step: expands every class of `current` into `next`, adding the cycles completed
// (last step only) to `closed` and the successors produced to `successors`. A plan
// (StepPlanner, step_layout.hpp) says how the step is built, and a strategy builds it: at once
// or in ranges (InRanges, step_in_ranges.hpp), in slices (InSlices, step_in_slices.hpp), each
// over the phases every step shares (StepCore, step_core.hpp). The expansion is StepExpander's,
// the spill files of the generations StepSpill's, the exchange between ranks rank_exchange's.
//
// Two phases, neither with a lock: every thread expands classes of `current` and appends
// their successors to its own blocks, one open block per part of `next` (SuccessorBlocks);
// then each part of `next` is built by one task that aggregates what all threads wrote for
// it (AggregationTable).
//
// When the step may not fit the memory budget, it is split into ranges of parts, built one
// after another, each range's classes written to spill files before the next starts (the
// current generation then goes to spill files too). The generation is expanded once: the
// first range's successors stay in blocks, every other successor goes to its range's file
// (SuccessorFiles); each later range is read back into blocks and aggregated. A range that
// still runs out of memory is redone as two halves read from its file. A step planned in one
// range that runs out is redone in two by expanding again. Without a spill area the step
// stops at the budget.
//
// A step that would not fit one pass is sliced first, where it can be (one process, a
// generation of several parts; slices_for, step_plan.hpp): the current
// generation's parts are expanded a slice at a time, each slice's successors aggregated into
// partial parts and given back, and the partial parts merged into the next generation at the
// end (build_sliced, partial_merge.hpp). It holds a slice's successors beside the partial
// parts, not every successor, and stays in memory where ranges would spill. When the partial
// parts would not fit, the current generation goes to spill files first; when they still
// would not, or a sliced step runs out after all, the step is built in ranges. When the partial
// parts fit only in place of the current generation, its parts are set aside to spill files
// as their slice is expanded (write-only: read back only when the step does not finish), and
// the next generation stays in memory.
//
// With several ranks (`ranks`; nullptr: this process alone) each holds the classes it owns
// (owner_rank). The expansion runs in rounds of kRoundClasses; a thread puts the successors
// another rank owns in its outbox, one block list per rank, and after each round the ranks
// exchange their outboxes (Ranks::all_to_all) and keep what they received as their own
// successors; the rest is the same on every rank, each with its own range files. Parts,
// ranges and rounds are agreed from the ranks' maxima, and every pass ends with the ranks
// agreeing on its outcome, so that all of them redo, spill, stop or widen together.
//
// Over many cores: nothing in a step is shared per class or per successor. A thread appends
// to its own blocks (Expansion), each part of `next` is aggregated by one task in its
// thread's own table, and what threads share is touched once a chunk of blocks (MemoryBudget:
// one atomic add a MiB) or once kPollEvery classes (stop flag, progress counter). Work is
// over-decomposed for oneTBB's work stealing: expansion in chunks of kPollEvery classes of
// each part of `current`, aggregation in up to 2^14 parts. Spilled parts are written by
// several threads at once, each to a file of its own (StepSpill). What runs on one thread is per
// step or per pass: planning, collecting the threads' outcomes. Measured on 16 cores
// (results/frontier/threads.md): 8x8 closed 1.96x from 8 to 16 threads and 1.92x from
// 4 to 8, with the same CPU per class at every count. Past one machine's cores, ranks split the
// classes by hash (owner_rank).
template <int K>
StepEnd run_step(const StepContext& c, int k, Generation<K>& current, Generation<K>& next,
                 const StepForecast& forecast, WideCount<K>& closed, std::uint64_t& successors) {
  StepCore<K> core(c, k, current, next, closed, successors);
  const StepLayout layout = StepPlanner<K>(core).plan(forecast);
  successors = 0;
  std::size_t passes = layout.passes;
  bool after_slices = false;
  if (layout.slices > 1) {
    InSlices<K> sliced(core, layout);
    if (const auto end = sliced.build()) return *end;
    if (!sliced.out_of_room()) return core.finish(sliced.strategy());
    // Out of room after all: built in ranges from spill files instead, as a step that does
    // not fit is.
    spdlog::debug("step {}: the slices did not fit, built in ranges", k + 1);
    ++c.progress.redone;
    successors = 0;
    core.start_spilling();
    passes = std::max<std::size_t>(2, ranges_for(layout.need, c.budget.room(), core.parts()));
    after_slices = true;
  }
  InRanges<K> ranged(core);
  if (const auto end = ranged.build(passes)) return *end;
  if (after_slices) return core.finish(StepStrategy::sliced_then_in_ranges);
  return core.finish(ranged.split() ? StepStrategy::in_ranges : StepStrategy::at_once);
}

}  // namespace knightstour::frontier_detail
