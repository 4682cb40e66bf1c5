#pragma once

// What every strategy of a step shares (frontier_step.hpp): the step's generations, budget and
// spill area, and the two phases every strategy is made of: expanding classes into each
// thread's blocks (StepExpander) and aggregating each part from them (AggregationTable).

#include <spdlog/spdlog.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "frontier/progress/step_progress.hpp"
#include "frontier/step/aggregation_table.hpp"
#include "frontier/step/rank_exchange.hpp"
#include "frontier/step/step_expander.hpp"
#include "frontier/step/step_expansion.hpp"
#include "frontier/step/step_plan.hpp"
#include "frontier/store/freed_memory.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/store/step_spill.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"

namespace knightstour::frontier_detail {

enum class StepEnd { done, overflow, stopped };

// What every step of a sweep shares: the rules, the memory budget, the spill area, the stop
// control, the progress line, the bit kernel and the ranks (nullptr: this process alone).
struct StepContext {
  const StepRules& rules;
  MemoryBudget& budget;
  SpillArea& spill;
  StopControl& stop;
  StepProgress& progress;
  BitKernel kernel = BitKernel::portable;
  Ranks* ranks = nullptr;
  StepBytes* widest = nullptr;       // kept: the pass that held the most, by what held it
  StepMeasures* measured = nullptr;  // set at the end of each step, for the next one's forecast
  std::size_t slices = 0;            // FrontierOptions::slices
};

// One step's state and the phases its strategies share. The plan (step_layout.hpp) and the
// strategies (step_in_ranges.hpp, step_in_slices.hpp) work on it; it decides nothing itself.
template <int K>
class StepCore {
 public:
  using Expansions = tbb::enumerable_thread_specific<Expansion<K>>;
  using Entry = typename SuccessorBlocks<K>::Entry;

  StepCore(const StepContext& c, int k, Generation<K>& current, Generation<K>& next,
           WideCount<K>& closed, std::uint64_t& successors)
      : rules_(c.rules),
        k_(k),
        rule_(c.rules.steps[static_cast<std::size_t>(k)]),
        current_(current),
        next_(next),
        closed_(closed),
        successors_(successors),
        budget_(c.budget),
        spill_(c.spill),
        stop_(c.stop),
        progress_(c.progress),
        widest_(c.widest),
        measured_(c.measured),
        ranks_(several_ranks(c.ranks)),
        rank_count_(ranks_ != nullptr ? ranks_->size() : 1),
        forced_slices_(c.slices),
        expander_(c.rules, k, current, c.kernel, ranks_, abort_, c.progress) {}

  bool distributed() const { return ranks_ != nullptr; }
  std::size_t parts() const { return parts_; }
  std::size_t part_of(std::uint64_t key) const { return expander_.part_of(key); }
  static double mb(std::uint64_t bytes) { return static_cast<double>(bytes) / 1e6; }

  // The next generation in 2^bits parts, for the successors the step is expected to keep.
  void set_parts(int bits) {
    bits_ = bits;
    expander_.set_part_bits(bits_);
    parts_ = std::size_t{1} << bits_;
    next_.parts.assign(parts_, {});
  }

  // The step's generations go to spill files from here on. The partial parts freed and the
  // current generation's bytes spilled would otherwise stay in the threads' heaps beside the
  // ranges' blocks (the unit d2-e6 under 3000M: 1.9 GiB of them, the process at 1.17-1.21x
  // its budget).
  void start_spilling() {
    spilled_.start(current_, next_);
    return_freed_memory();
  }

  // A step that does not finish leaves `next` empty, with its budget returned.
  StepEnd abandon(StepEnd end) {
    budget_.release(next_.memory_bytes());
    next_ = {};
    return end;
  }

  // A step built by `strategy`: counted, its successors and their bytes measured for the next
  // step's forecast.
  StepEnd finish(StepStrategy strategy) {
    spilled_.finish(next_);
    ++progress_.by_strategy[static_cast<int>(strategy)];
    // Successors made: those kept, and those merged in the combiners (measured as a share,
    // which expansions redone do not change).
    const double kept_share =
        combined_ > 0 ? 1.0 - static_cast<double>(merged_) / static_cast<double>(combined_) : 1.0;
    if (kept_share > 0)
      successors_ = static_cast<std::uint64_t>(static_cast<double>(successors_) / kept_share);
    if (measured_ != nullptr) {
      *measured_ = {};
      if (held_successors_ > 0)
        measured_->successor_bytes =
            static_cast<double>(held_bytes_) / static_cast<double>(held_successors_);
      if (combined_ > 0) measured_->kept_share = kept_share;
    }
    return StepEnd::done;
  }

  // What a pass ended with, agreed over the ranks.
  std::uint32_t agreed_outcome(bool overflow) {
    const std::uint32_t outcome = (abort_.raised() ? kAborted : 0) |
                                  (stop_.stopped() ? kStopped : 0) | (overflow ? kOverflow : 0) |
                                  (budget_.exceeded() ? kOutOfMemory : 0);
    return distributed() ? ranks_->any_bits(outcome) : outcome;
  }

  // Takes the cycles completed in the step's expansion (the first range's pass, the
  // write-once expansion, or the slices'): summed over the ranks, added to `closed`. False:
  // the sum does not fit K limbs.
  bool take_closed(WideCount<K> step_closed, bool closed_wide) {
    closed_taken_ = true;
    if (distributed()) step_closed = sum_over_ranks(*ranks_, step_closed, closed_wide);
    return !(closed_.add(step_closed) || closed_wide);
  }

  // Once an expansion is done: the successors its threads' combiners still hold kept (the
  // pass's first part: lo); raises abort_ when they do not fit.
  void keep_combined(Expansions& expansions, std::size_t lo) {
    for (auto& e : expansions) {
      if (abort_.raised() || !e.flush(lo)) abort_.raise();
      combined_ += e.combiner.added();
      merged_ += e.combiner.merged();
    }
  }

  // Phase 2: each part p of [lo, hi) aggregated by one task into out[p] (a sliced step's
  // partial parts: `sorted`, in MergeOrder). Raises abort_ when a part runs out of memory, sets
  // `overflow` when its counts outgrow K limbs.
  void aggregate(Expansions& expansions, std::size_t lo, std::size_t hi,
                 std::vector<ClassPart>& out, std::atomic<bool>& overflow, bool sorted = false) {
    std::vector<const SuccessorBlocks<K>*> written;
    for (auto& e : expansions) written.push_back(&e.blocks);
    tbb::parallel_for(lo, hi, [&](std::size_t p) {
      if (abort_.raised()) return;
      bool wide = false;
      if (!tables_.local().aggregate(written, p - lo, out[p], budget_, wide, rules_.slots, sorted))
        abort_.raise();
      if (wide) overflow = true;
    });
  }

  // What a pass's expansions held and made, summed over the threads (end_pass).
  struct PassTotals {
    std::uint64_t successors = 0;  // in blocks
    std::uint64_t written = 0;     // bytes the successors took as written
    std::uint64_t blocks = 0;      // bytes of the blocks
    std::uint64_t tables = 0;      // bytes of the aggregation tables (blocks are unmapped when
                                   // freed; tables go back to the heap)
    WideCount<K> closed;           // cycles completed
    bool closed_wide = false;      // their sum outgrew K limbs
  };
  // Once a pass's parts are aggregated: the threads' totals (`overflow` set where a thread's
  // counts outgrew K limbs), the pass noted at its fullest (note_held; `partial`: the bytes of
  // a sliced step's partial parts), its tables released.
  PassTotals end_pass(Expansions& expansions, std::atomic<bool>& overflow,
                      std::uint64_t partial = 0) {
    PassTotals t;
    for (auto& e : expansions) {
      t.successors += e.blocks.successors();
      t.written += e.blocks.written_bytes();
      t.blocks += e.blocks.bytes();
      if (e.overflow) overflow = true;
      t.closed_wide = t.closed.add(e.closed) || t.closed_wide;
    }
    held_successors_ += t.successors;
    held_bytes_ += t.written;
    for (auto& table : tables_) t.tables += table.bytes();
    note_held(expansions, t, partial);
    for (auto& table : tables_) table.release(budget_);
    return t;
  }

 private:
  template <int>
  friend class InRanges;
  template <int>
  friend class InSlices;
  template <int>
  friend class StepPlanner;

  // What the budget holds at the end of a pass's aggregation, its fullest moment (both
  // generations, every successor still in its blocks), by what holds it: logged, and kept
  // in `widest_` when it is the most so far.
  void note_held(Expansions& expansions, const PassTotals& t, std::uint64_t partial) {
    StepBytes b;
    b.current = current_.memory_bytes();
    b.next = next_.memory_bytes();
    b.partial = partial;
    for (auto& e : expansions) b.successors += e.blocks.bytes() + e.outbox.bytes();
    b.tables = t.tables;
    b.idle = budget_.idle_bytes();
    const std::uint64_t used = budget_.used();
    const std::uint64_t named = b.current + b.next + b.partial + b.successors + b.tables + b.idle;
    b.other = used - std::min(used, named);
    spdlog::debug(
        "step {} pass {}: {:.1f} MB held: current generation {:.1f}, next {:.1f}, partial "
        "{:.1f}, successors {:.1f} ({} of {:.1f} bytes), tables {:.1f}, idle scratch {:.1f}, "
        "other {:.1f}",
        k_ + 1, progress_.pass.load(), mb(used), mb(b.current), mb(b.next), mb(b.partial),
        mb(b.successors), t.successors,
        t.successors == 0 ? 0.0
                          : static_cast<double>(t.written) / static_cast<double>(t.successors),
        mb(b.tables), mb(b.idle), mb(b.other));
    if (widest_ != nullptr && b.total() > widest_->total()) *widest_ = b;
  }

  const StepRules& rules_;
  const int k_;
  const StepRule& rule_;
  Generation<K>& current_;
  Generation<K>& next_;
  WideCount<K>& closed_;
  std::uint64_t& successors_;
  MemoryBudget& budget_;
  SpillArea& spill_;
  StopControl& stop_;
  StepProgress& progress_;
  StepBytes* const widest_;
  StepMeasures* const measured_;
  Ranks* const ranks_;  // nullptr: this process counts alone
  const int rank_count_;
  const std::size_t forced_slices_;  // StepContext::slices

  StepAbort abort_{stop_};  // stopped or out of memory: the pass winds down
  StepExpander<K> expander_;
  int bits_ = 0;  // the next generation has 2^bits_ parts, by the top bits of route_hash
  std::size_t parts_ = 1;
  bool closed_taken_ = false;           // the step's cycles were added to `closed`
  bool combine_ = false;                // successors go through the threads' combiners
  StepSpill spilled_{spill_, budget_};  // where the generations go once the step spills
  std::uint64_t held_bytes_ = 0;        // of successors in blocks, over the step's passes
  std::uint64_t held_successors_ = 0;
  std::uint64_t expected_ = 0;  // successors the step is expected to make (StepLayout)
  std::uint64_t combined_ = 0;  // successors the combiners were given, over the expansions
  std::uint64_t merged_ = 0;    // of them merged there
  tbb::enumerable_thread_specific<AggregationTable<K>> tables_;
};

}  // namespace knightstour::frontier_detail
