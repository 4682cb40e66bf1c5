#pragma once

// One step of a frontier sweep: every class of a generation expanded into the next.

#include <spdlog/spdlog.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/mirror.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/progress/step_progress.hpp"
#include "frontier/step/aggregation_table.hpp"
#include "frontier/step/choice_plans.hpp"
#include "frontier/step/partial_merge.hpp"
#include "frontier/step/rank_exchange.hpp"
#include "frontier/step/step_expander.hpp"
#include "frontier/step/step_expansion.hpp"
#include "frontier/step/step_plan.hpp"
#include "frontier/store/freed_memory.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/store/step_spill.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "frontier/store/successor_files.hpp"
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

// One step: expands every class of `current` into `next`, adding the cycles completed
// (last step only) to `closed` and the successors produced to `successors`. StepRun plans
// the step's ranges (step_plan.hpp) and builds them; the expansion is StepExpander's, the
// spill files of the generations StepSpill's, the exchange between ranks rank_exchange's.
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
class StepRun {
 public:
  StepRun(const StepContext& c, int k, Generation<K>& current, Generation<K>& next,
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

  StepEnd run(const StepForecast& forecast) {
    combine_ = combines(forecast);
    const auto kept = static_cast<std::uint64_t>(static_cast<double>(forecast.successors) *
                                                 (combine_ ? forecast.kept_share : 1.0));
    const std::uint64_t successors = distributed() ? ranks_->max(kept) : kept;
    bits_ = part_bits(successors);
    if (spill_.enabled()) {
      bits_ = part_bits_within(bits_, successors, budget_.room(),
                               [](std::uint64_t n) { return AggregationTable<K>::bytes_for(n); });
      if (distributed()) bits_ = static_cast<int>(ranks_->max(static_cast<std::uint64_t>(bits_)));
    }
    expander_.set_part_bits(bits_);
    parts_ = std::size_t{1} << bits_;
    next_.parts.assign(parts_, {});
    std::size_t passes = plan_ranges(forecast);
    trim_idle(forecast, passes * slices_);
    successors_ = 0;
    if (slices_ > 1) {
      if (const auto end = build_sliced()) return *end;
      if (!sliced_out_of_room_) return finish_step();
      // Out of room after all: built in ranges from spill files instead, as a step that does
      // not fit is.
      spdlog::debug("step {}: the slices did not fit, built in ranges", k_ + 1);
      ++progress_.redone;
      slices_ = 1;
      successors_ = 0;
      spilled_.start(current_, next_);
      // The partial parts freed and the current generation's bytes spilled would otherwise
      // stay in the threads' heaps beside the ranges' blocks (the unit d2-e6 under 3000M: 1.9
      // GiB of them, the process at 1.17-1.21x its budget).
      return_freed_memory();
      passes = std::max<std::size_t>(2, ranges_for(need_, budget_.room(), parts_));
    }
    for (std::size_t i = 0; i < passes; ++i)
      ranges_.push_back({parts_ * i / passes, parts_ * (i + 1) / passes, i});
    progress_.passes = static_cast<int>(passes);
    progress_.pass = 0;
    if (passes > 1) {
      if (const auto end = expand_once_into_files()) return *end;
    }
    while (!ranges_.empty()) {
      const Range range = ranges_.front();
      ranges_.pop_front();
      if (const auto end = build_range(range)) return *end;
    }
    return finish_step();
  }

 private:
  StepEnd finish_step() {
    spilled_.finish(next_);
    ++progress_.by_strategy[static_cast<int>(strategy())];
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

  using Expansions = tbb::enumerable_thread_specific<Expansion<K>>;
  using Entry = typename SuccessorBlocks<K>::Entry;
  // A range of parts to build, and the range file holding its successors (write-once).
  struct Range {
    std::size_t lo, hi, file;
  };

  bool distributed() const { return ranks_ != nullptr; }
  // How the step was built, once it is (a sliced step that ran out has slices_ 1 again).
  StepStrategy strategy() const {
    if (sliced_out_of_room_) return StepStrategy::sliced_then_in_ranges;
    if (slices_ > 1)
      return aside_started_ ? StepStrategy::sliced_setting_aside : StepStrategy::sliced;
    return progress_.passes > 1 ? StepStrategy::in_ranges : StepStrategy::at_once;
  }
  std::size_t part_of(std::uint64_t key) const { return expander_.part_of(key); }

  // A step that does not finish leaves `next` empty, with its budget returned.
  StepEnd abandon(StepEnd end) {
    budget_.release(next_.memory_bytes());
    next_ = {};
    return end;
  }

  // Whether the step's successors go through the threads' combiners (successor_combiner.hpp):
  // when it is forecast to need more than a quarter of the room. The combiner keeps a fifth
  // fewer successors for 1.05-1.07x the CPU of a count (7x8 closed), a price paid only where
  // memory may bind (results/frontier/combiner.md).
  bool combines(const StepForecast& forecast) const {
    const std::uint64_t need =
        step_bytes<K>(forecast.successors, forecast.classes_per_successor, forecast.bytes_per_class,
                      forecast.bytes_per_successor);
    return static_cast<double>(need) > static_cast<double>(budget_.room()) * kCombineFrom;
  }
  static constexpr double kCombineFrom = 0.25;

  // Before a step, idle scratch chunks past what its successors are expected to fill, with
  // half as much again, are unmapped: chunks that an earlier, bigger step or sweep left would
  // otherwise sit idle, resident and counted, beside this step's generations at its fullest
  // moment (8x8 closed: 5.5 GB idle beside 2.15 GB of successors). A step that makes more
  // faults fresh chunks in.
  void trim_idle(const StepForecast& forecast, std::size_t passes) {
    constexpr double kMargin = 1.5;
    const double share = combine_ ? forecast.kept_share : 1.0;
    const auto kept = static_cast<std::uint64_t>(static_cast<double>(expected_) * share);
    const double blocks = kMargin *
                          static_cast<double>(step_bytes<K>(kept, 0, forecast.bytes_per_class,
                                                            forecast.bytes_per_successor)) /
                          static_cast<double>(passes);
    // Each thread's open blocks (one a part) and the chunk it is filling.
    const auto threads = static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency());
    const std::uint64_t open =
        threads * (parts_ * sizeof(typename SuccessorBlocks<K>::Block) + budget_.chunk_bytes());
    const std::uint64_t idle = budget_.idle_bytes();
    budget_.trim_idle(static_cast<std::uint64_t>(blocks) + open);
    if (budget_.idle_bytes() < idle)
      spdlog::debug("step {}: {:.1f} MB of idle scratch unmapped, {:.1f} MB kept", k_ + 1,
                    mb(idle - budget_.idle_bytes()), mb(budget_.idle_bytes()));
  }

  // Ranges: as many as the step needs, with room to spare (StepForecast, step_plan.hpp); or
  // slices (slices_for), which keep the step in memory where ranges would spill it.
  std::size_t plan_ranges(const StepForecast& forecast) {
    std::size_t passes = 1;
    expected_ = forecast.successors;
    slices_ = 1;
    const bool may_slice = !distributed() && current_.parts.size() > 1 && forced_slices_ != 1;
    if (spill_.enabled() || may_slice) passes = plan_pass(forecast, may_slice);
    if (distributed()) passes = static_cast<std::size_t>(ranks_->max(passes));
    return passes;
  }
  std::size_t plan_pass(const StepForecast& forecast, bool may_slice) {
    std::size_t passes = 1;
    std::uint64_t successors = forecast.successors;  // made, before any is combined
    const double share = combine_ ? forecast.kept_share : 1.0;
    auto kept = [&] { return static_cast<std::uint64_t>(static_cast<double>(successors) * share); };
    auto need_for = [&] {
      return step_bytes<K>(kept(), forecast.classes_per_successor / share, forecast.bytes_per_class,
                           forecast.bytes_per_successor);
    };
    need_ = need_for();
    if (worth_sampling(need_, budget_.room())) {
      successors = sampled_successors(rules_, rule_, current_);
      need_ = need_for();
    }
    expected_ = successors;
    spdlog::debug(
        "step {}: {} successors expected at {:.1f} bytes (0: not known yet), {:.2f} "
        "classes each; {}",
        k_ + 1, successors, forecast.bytes_per_successor, forecast.classes_per_successor,
        combine_ ? fmt::format("combined, {:.2f} of them kept", share) : "not combined");
    // The successors' bytes and the next generation's, apart.
    const auto successor_bytes = static_cast<double>(
        step_bytes<K>(kept(), 0, forecast.bytes_per_class, forecast.bytes_per_successor));
    const double next_bytes = static_cast<double>(need_) - successor_bytes;
    auto plan_slices = [&] {
      if (!may_slice) return std::size_t{1};
      if (forced_slices_ > 1) return std::min(forced_slices_, current_.parts.size());
      return std::min(
          slices_for(successor_bytes, next_bytes, static_cast<double>(current_.rest_bytes()),
                     static_cast<double>(budget_.room()),
                     spill_.enabled() ? kPassFill : kSliceWithoutSpill),
          current_.parts.size());
    };
    const auto current = static_cast<double>(current_.memory_bytes());
    auto need_now = [&] {
      if (slices_ == 1) return need_;
      return static_cast<std::uint64_t>(
          set_aside_ ? aside_need(successor_bytes, next_bytes, current, slices_)
                     : sliced_need(successor_bytes, next_bytes, slices_));
    };
    // Slices that set the current generation aside as they go (aside_need): the fewest that
    // fit, or those forced when they fit; 1 when none do.
    auto plan_aside = [&] {
      if (!may_slice) return std::size_t{1};
      std::size_t slices = slices_setting_aside(successor_bytes, next_bytes, current,
                                                static_cast<double>(budget_.room()));
      if (forced_slices_ > 1) {
        slices = std::min(forced_slices_, current_.parts.size());
        if (aside_need(successor_bytes, next_bytes, current, slices) >
            static_cast<double>(budget_.room()))
          slices = 1;
      }
      return slices <= current_.parts.size() ? slices : std::size_t{1};
    };
    slices_ = plan_slices();
    // Without spill files a step that does not fit at once has only slices: all it can have.
    if (slices_ == 1 && may_slice && !spill_.enabled() && !fits_one_pass(need_, budget_.room()))
      slices_ = std::min(kMaxSlices, current_.parts.size());
    if (!fits_one_pass(need_now(), budget_.room()) && spill_.enabled()) {
      if (const std::size_t aside = plan_aside(); aside > 1) {
        slices_ = aside;
        set_aside_ = true;
      } else {
        spilled_.start(current_, next_);  // frees what the current generation held
        return_freed_memory();
        slices_ = plan_slices();
        if (slices_ > 1 && !fits_one_pass(need_now(), budget_.room())) slices_ = 1;
        if (slices_ == 1) passes = ranges_for(need_, budget_.room(), parts_);
      }
    }
    spdlog::debug("step {}: {:.0f} MB expected, {:.0f} MB of room, {} ranges, {} slices{}", k_ + 1,
                  mb(need_now()), mb(budget_.room()), passes, slices_,
                  set_aside_ ? ", the current generation set aside if they need" : "");
    return passes;
  }

  // What a pass ended with, agreed over the ranks.
  std::uint32_t agreed_outcome(bool overflow) {
    const std::uint32_t outcome = (abort_.raised() ? kAborted : 0) |
                                  (stop_.stopped() ? kStopped : 0) | (overflow ? kOverflow : 0) |
                                  (budget_.exceeded() ? kOutOfMemory : 0);
    return distributed() ? ranks_->any_bits(outcome) : outcome;
  }

  // Takes the cycles completed in the step's expansion (the first range's pass, or the
  // write-once expansion): summed over the ranks, added to `closed`. False: the sum does not
  // fit K limbs.
  bool take_closed(WideCount<K> step_closed, bool closed_wide) {
    closed_taken_ = true;
    if (distributed()) step_closed = sum_over_ranks(*ranks_, step_closed, closed_wide);
    return !(closed_.add(step_closed) || closed_wide);
  }

  // Write-once: a step in several ranges expands `current` once, the successors of the first
  // range into memory (it is built first, from there) and every other successor to its
  // range's file; the other ranges are then built from their files. When the first range
  // does not fit beside the expansion after all, the expansion is redone with every range in
  // a file. Returns how the step ended when it ends here.
  std::optional<StepEnd> expand_once_into_files() {
    const std::size_t passes = ranges_.size();
    range_of_.resize(parts_);
    for (const Range& r : ranges_) {
      for (std::size_t p = r.lo; p < r.hi; ++p) range_of_[p] = static_cast<std::uint32_t>(r.file);
    }
    unread_.assign(passes, 1);
    buffer_entries_ = io_buffer_bytes(budget_.room(), passes) / sizeof(Entry);
    for (const std::size_t in_memory : {ranges_.front().hi, std::size_t{0}}) {
      files_.emplace(spill_, passes);
      auto expansions = std::make_unique<Expansions>([&] {
        return Expansion<K>(*files_, range_of_, buffer_entries_, rules_.slots, in_memory,
                            rank_count_, budget_, combine_);
      });
      abort_.clear();
      progress_.expanded = 0;
      expander_.expand(*expansions, 0, parts_);
      keep_combined(*expansions, 0);
      bool overflow = false;
      WideCount<K> step_closed;
      bool closed_wide = false;
      for (auto& e : *expansions) {
        if (!abort_.raised()) e.writer->flush();
        e.writer.reset();  // gives its buffers back
        overflow = overflow || e.overflow;
        closed_wide = step_closed.add(e.closed) || closed_wide;
      }
      const std::uint32_t outcome = agreed_outcome(overflow);
      if ((outcome & kOverflow) != 0) return abandon(StepEnd::overflow);
      if ((outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0 && in_memory > 0) {
        spdlog::debug("step {}: the first range did not fit beside the expansion, expanded again",
                      k_ + 1);
        ++progress_.redone;
        expansions.reset();
        budget_.clear_exceeded();
        continue;
      }
      if (outcome != 0) return abandon(StepEnd::stopped);
      if (!take_closed(step_closed, closed_wide)) return abandon(StepEnd::overflow);
      if (in_memory > 0) first_range_ = std::move(expansions);
      break;
    }
    return std::nullopt;
  }

  // Reads range file `f` into the threads' blocks, keeping the successors of parts [lo, hi),
  // a record at a time; sets `abort_` when stopped or out of memory.
  void read_file(Expansions& expansions, std::size_t f, std::size_t lo, std::size_t hi) {
    const auto& records = files_->records(f);
    tbb::enumerable_thread_specific<ClassBuffer<K>> buffers(
        [this] { return ClassBuffer<K>(&budget_); });
    tbb::parallel_for(std::size_t{0}, records.size(), [&](std::size_t i) {
      if (!abort_.poll()) return;
      Expansion<K>& e = expansions.local();
      bool full = false;
      read_successor_record<K>(*files_, f, records[i], buffers.local(),
                               [&](std::uint64_t key, const WideCount<K>& count) {
                                 const std::size_t p = part_of(key);
                                 if (p < lo || p >= hi || full) return;
                                 full = !e.blocks.add(p - lo, key, count);
                               });
      if (full) abort_.raise();
    });
  }

  // Phase 1 of a range: its successors in each thread's blocks, read back from its file or
  // expanded again (the first range's are held already when the step expanded once).
  std::unique_ptr<Expansions> successors_of(std::size_t lo, std::size_t hi, std::size_t file) {
    std::unique_ptr<Expansions> held = std::move(first_range_);
    if (held) return held;
    held = std::make_unique<Expansions>(
        [&] { return Expansion<K>(hi - lo, rank_count_, budget_, combine_); });
    if (files_) {
      read_file(*held, file, lo, hi);
    } else {
      progress_.expanded = 0;
      expander_.expand(*held, lo, hi);
      keep_combined(*held, lo);
    }
    return held;
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

  // The first range, held in memory since the expansion, did not fit its classes: its
  // successors go to its file, to be read back in halves like any other range.
  void write_to_file(Expansions& expansions, std::size_t lo, std::size_t hi) {
    spdlog::debug("step {}: the first range's successors go to its file", k_ + 1);
    for (auto& e : expansions) {
      SuccessorWriter<K> writer(*files_, range_of_, buffer_entries_, rules_.slots, budget_);
      for (std::size_t p = lo; p < hi; ++p)
        e.blocks.for_each(p - lo, [&](const Entry& x) { writer.add(p, x.key, x.count); });
      writer.flush();
    }
  }

  // What the budget holds at the end of a pass's aggregation, its fullest moment (both
  // generations, every successor still in its blocks), by what holds it: logged, and kept
  // in `widest_` when it is the most so far.
  // `held` successors, of `written` bytes, waited in blocks in this pass.
  void note_held(Expansions& expansions, std::uint64_t tables, std::uint64_t held,
                 std::uint64_t written) {
    StepBytes b;
    b.current = current_.memory_bytes();
    b.next = next_.memory_bytes();
    for (const auto& slice : partials_) {
      for (const auto& part : slice) b.partial += part.memory_bytes();
    }
    for (auto& e : expansions) b.successors += e.blocks.bytes() + e.outbox.bytes();
    b.tables = tables;
    b.idle = budget_.idle_bytes();
    const std::uint64_t used = budget_.used();
    const std::uint64_t named = b.current + b.next + b.partial + b.successors + b.tables + b.idle;
    b.other = used - std::min(used, named);
    spdlog::debug(
        "step {} pass {}: {:.1f} MB held: current generation {:.1f}, next {:.1f}, partial "
        "{:.1f}, successors {:.1f} ({} of {:.1f} bytes), tables {:.1f}, idle scratch {:.1f}, "
        "other {:.1f}",
        k_ + 1, progress_.pass.load(), mb(used), mb(b.current), mb(b.next), mb(b.partial),
        mb(b.successors), held,
        held == 0 ? 0.0 : static_cast<double>(written) / static_cast<double>(held), mb(b.tables),
        mb(b.idle), mb(b.other));
    if (widest_ != nullptr && b.total() > widest_->total()) *widest_ = b;
  }
  static double mb(std::uint64_t bytes) { return static_cast<double>(bytes) / 1e6; }

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
  // counts outgrew K limbs), the pass noted at its fullest (note_held), its tables released.
  PassTotals end_pass(Expansions& expansions, std::atomic<bool>& overflow) {
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
    note_held(expansions, t.tables, t.successors, t.written);
    for (auto& table : tables_) table.release(budget_);
    return t;
  }

  // A range that ran out of memory: room made on disk, and the range put back as two halves.
  void redo_in_halves(const Range& range) {
    spdlog::debug("step {}: parts {}-{} did not fit, redone in two halves", k_ + 1, range.lo,
                  range.hi - 1);
    ++progress_.redone;
    budget_.clear_exceeded();
    spilled_.start(current_, next_);
    const std::size_t mid = range.lo + (range.hi - range.lo) / 2;
    ranges_.push_front({mid, range.hi, range.file});
    ranges_.push_front({range.lo, mid, range.file});
    if (files_) ++unread_[range.file];
    progress_.passes = progress_.passes + 1;
    progress_.pass = progress_.pass - 1;
  }

  // Builds the parts of `range` in two phases: its successors into each thread's blocks, then
  // each part aggregated by one task. A range that runs out of memory is put back as two
  // halves. Returns how the step ended when it ends here.
  std::optional<StepEnd> build_range(const Range& range) {
    const std::size_t lo = range.lo, hi = range.hi;
    progress_.pass = progress_.pass + 1;
    abort_.clear();
    std::atomic<bool> overflow{false};
    const bool from_expansion = first_range_ != nullptr;
    std::unique_ptr<Expansions> held_here = successors_of(lo, hi, range.file);
    Expansions& expansions = *held_here;
    if (!abort_.raised() && !stop_.stopped()) aggregate(expansions, lo, hi, next_.parts, overflow);
    // Successors of this pass's parts only: each pass keeps its own. A range file's are
    // counted as they were written (before its records merged equal keys), once it is built.
    const PassTotals pass = end_pass(expansions, overflow);
    const std::uint64_t pass_successors = from_expansion || !files_ ? pass.successors : 0;

    const std::uint32_t outcome = agreed_outcome(overflow.load());
    const bool out_of_memory = (outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0;
    if (from_expansion && out_of_memory && (outcome & kOverflow) == 0 && hi - lo > 1)
      write_to_file(expansions, lo, hi);
    held_here.reset();  // gives the blocks back to the system (huge_chunks.hpp)
    // Freed tables would otherwise stay resident in the threads' heaps beside the classes
    // the next pass or step allocates (small steps reuse them; trimming would cost faults).
    if (pass.tables > kTrimAfterBytes) return_freed_memory();
    if ((outcome & (kAborted | kStopped | kOverflow)) != 0) {
      for (std::size_t p = lo; p < hi; ++p) {
        budget_.release(next_.parts[p].memory_bytes());
        next_.parts[p] = {};
      }
      if ((outcome & kOverflow) != 0) return abandon(StepEnd::overflow);
      if (!out_of_memory || !spill_.enabled() || hi - lo == 1) return abandon(StepEnd::stopped);
      redo_in_halves(range);
      return std::nullopt;
    }
    successors_ += pass_successors;
    if (files_ && --unread_[range.file] == 0) {
      successors_ += files_->successors(range.file);
      files_->drop(range.file);
    }
    if (!closed_taken_ && !take_closed(pass.closed, pass.closed_wide))
      return abandon(StepEnd::overflow);
    if (spilled_.started()) {
      spilled_.spill(next_, lo, hi);
      return_freed_memory();
    }
    return std::nullopt;
  }

  // A sliced step: the current generation's parts expanded a slice at a time (slices_ of
  // about equal classes), each slice's successors aggregated into partial parts in MergeOrder
  // and given back, and the slice's parts of the current generation set aside when planned
  // so (set_aside_); then each part of the next generation merged from its partial parts,
  // which are freed as it goes. Returns how the step ended when it ends here; out of room
  // (sliced_out_of_room_, with spill files to build it in ranges instead), it returns nothing
  // with `next` empty. However it ends, the parts set aside are in their files after.
  std::optional<StepEnd> build_sliced() {
    const auto end = slice_and_merge();
    spilled_.end_aside(current_);
    return end;
  }
  std::optional<StepEnd> slice_and_merge() {
    partials_.assign(slices_, std::vector<ClassPart>(parts_));
    WideCount<K> step_closed;
    bool closed_wide = false;
    std::atomic<bool> overflow{false};
    progress_.passes = 1;
    progress_.pass = 1;
    progress_.expanded = 0;
    const std::uint64_t total = current_.size();
    std::size_t from = 0;
    std::uint64_t before = 0;  // classes of the parts before `from`
    for (std::size_t s = 0; s < slices_; ++s) {
      std::size_t to = from;
      const std::uint64_t want = total * (s + 1) / slices_;
      while (to < current_.parts.size() && (before < want || s + 1 == slices_))
        before += current_.parts[to++].size();
      abort_.clear();
      auto expansions = std::make_unique<Expansions>(
          [&] { return Expansion<K>(parts_, rank_count_, budget_, combine_); });
      expander_.expand(*expansions, 0, parts_, from, to);
      keep_combined(*expansions, 0);
      if (!abort_.raised() && !stop_.stopped())
        aggregate(*expansions, 0, parts_, partials_[s], overflow, true);
      const PassTotals pass = end_pass(*expansions, overflow);
      closed_wide = step_closed.add(pass.closed) || pass.closed_wide || closed_wide;
      successors_ += pass.successors;
      slice_bytes_ = pass.blocks;
      expansions.reset();  // gives the blocks back
      if (pass.tables > kTrimAfterBytes) return_freed_memory();
      if (const auto end = end_of_slices(agreed_outcome(overflow.load()))) return end;
      if (sliced_out_of_room_) return std::nullopt;
      // (The last slice's parts stay: the merge makes no more than the partial parts held.)
      if (set_aside_ && s + 1 < slices_ && aside_due(pass.tables)) {
        if (!aside_started_) {
          aside_started_ = true;
          spdlog::debug("step {}: the current generation set aside from slice {} of {}", k_ + 1,
                        s + 1, slices_);
        }
        spilled_.set_aside(current_, aside_from_, to);
        aside_from_ = to;
        return_freed_memory();
      }
      from = to;
    }
    merge_partials(overflow);
    if (const auto end = end_of_slices(agreed_outcome(overflow.load()))) return end;
    if (sliced_out_of_room_) return std::nullopt;
    if (!take_closed(step_closed, closed_wide)) return abandon(StepEnd::overflow);
    if (spilled_.started()) {
      spilled_.spill(next_, 0, parts_);
      return_freed_memory();
    }
    return std::nullopt;
  }

  // Whether a sliced step that may set its current generation aside does so from here on
  // (then with the slices expanded so far): once it has, or once another slice like the last
  // (its growth of the partial parts, its successors past the idle scratch, its `tables`)
  // would take the budget past a pass's fill. The plan's forecast is 1.5-2x pessimistic
  // about the next generation, so the setting aside waits for what the slices measure.
  bool aside_due(std::uint64_t tables) {
    std::uint64_t partial = 0;
    for (const auto& slice : partials_) {
      for (const auto& part : slice) partial += part.memory_bytes();
    }
    const std::uint64_t grown = partial - std::min(partial, partial_before_);
    partial_before_ = partial;
    if (aside_started_) return true;
    const std::uint64_t idle = budget_.idle_bytes();
    const std::uint64_t fresh = slice_bytes_ - std::min(slice_bytes_, idle);
    const auto next_slice = static_cast<double>(budget_.used() + grown + fresh + tables);
    return next_slice > static_cast<double>(budget_.limit()) * kPassFill;
  }

  // Each part of the next generation merged from its partial parts (merge_parts), which are
  // freed as it goes. Raises abort_ when the budget cannot hold a part.
  void merge_partials(std::atomic<bool>& overflow) {
    struct Scratch {
      Scratch(int slots, std::size_t n, MemoryBudget* budget) : writer(slots) {
        for (std::size_t i = 0; i < n; ++i) buffers.emplace_back(budget);
      }
      PartWriter<K> writer;
      std::vector<ClassBuffer<K>> buffers;
    };
    tbb::enumerable_thread_specific<Scratch> scratch(
        [&] { return Scratch(rules_.slots, slices_, &budget_); });
    abort_.clear();
    tbb::parallel_for(std::size_t{0}, parts_, [&](std::size_t p) {
      if (!abort_.poll()) return;
      Scratch& local = scratch.local();
      std::vector<const ClassPart*> in;
      for (const auto& slice : partials_) in.push_back(&slice[p]);
      bool wide = false;
      ClassPart part = merge_parts<K>(in, rules_.slots, AggregationTable<K>::kBucketBits,
                                      local.writer, local.buffers, wide);
      if (wide) overflow = true;
      for (auto& slice : partials_) {
        budget_.release(slice[p].memory_bytes());
        slice[p] = {};
      }
      if (!budget_.reserve(part.memory_bytes())) {
        abort_.raise();
        return;
      }
      next_.parts[p] = std::move(part);
    });
  }

  // How a sliced step ends after a slice or the merge with `outcome`, when it ends there:
  // partial parts and `next` given back; out of room with spill files, nothing, and
  // sliced_out_of_room_ set: the caller stops slicing, and the step is built in ranges.
  std::optional<StepEnd> end_of_slices(std::uint32_t outcome) {
    if (outcome == 0) return std::nullopt;
    for (auto& slice : partials_) {
      for (auto& part : slice) budget_.release(part.memory_bytes());
    }
    partials_.clear();
    for (auto& part : next_.parts) {
      budget_.release(part.memory_bytes());
      part = {};
    }
    if ((outcome & kOverflow) != 0) return abandon(StepEnd::overflow);
    const bool out_of_memory = (outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0;
    if (!out_of_memory || !spill_.enabled()) return abandon(StepEnd::stopped);
    budget_.clear_exceeded();
    sliced_out_of_room_ = true;
    return std::nullopt;
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
  bool closed_taken_ = false;        // the step's cycles were added to `closed`
  bool combine_ = false;             // successors go through the threads' combiners
  bool sliced_out_of_room_ = false;  // a sliced step ran out: built in ranges instead
  bool set_aside_ = false;           // a sliced step may set the current generation aside
  bool aside_started_ = false;       // and has begun to (aside_due)
  std::size_t parts_ = 1;
  std::deque<Range> ranges_;            // still to build, in order
  StepSpill spilled_{spill_, budget_};  // where the generations go once the step spills
  std::uint64_t held_bytes_ = 0;        // of successors in blocks, over the step's passes
  std::uint64_t held_successors_ = 0;
  // Sliced (build_sliced): the current generation expanded in slices_ slices, and each
  // slice's partial parts of the next generation.
  std::size_t slices_ = 1;
  std::uint64_t need_ = 0;  // bytes the step needs unsliced (plan_ranges)
  std::vector<std::vector<ClassPart>> partials_;
  // Setting aside (aside_due): the first part of the current generation not set aside, the
  // partial parts' bytes after the slice before, the last slice's blocks.
  std::size_t aside_from_ = 0;
  std::uint64_t partial_before_ = 0;
  std::uint64_t slice_bytes_ = 0;
  std::uint64_t expected_ = 0;  // successors the step is expected to make (plan_ranges)
  std::uint64_t combined_ = 0;  // successors the combiners were given, over the expansions
  std::uint64_t merged_ = 0;    // of them merged there
  tbb::enumerable_thread_specific<AggregationTable<K>> tables_;

  // Write-once (a step in several ranges):
  std::optional<SuccessorFiles> files_;
  std::vector<std::uint32_t> range_of_;      // the range of each part
  std::vector<int> unread_;                  // ranges still to be built from each file
  std::size_t buffer_entries_ = 0;           // of each range's buffer in a thread's writer
  std::unique_ptr<Expansions> first_range_;  // the first range's successors, when in memory
};

// Runs step `k` (StepRun): `current` expanded into `next`, the cycles it closed added to
// `closed` and the successors it made to `successors`.
template <int K>
StepEnd run_step(const StepContext& c, int k, Generation<K>& current, Generation<K>& next,
                 const StepForecast& forecast, WideCount<K>& closed, std::uint64_t& successors) {
  return StepRun<K>(c, k, current, next, closed, successors).run(forecast);
}

}  // namespace knightstour::frontier_detail
