#pragma once

// A step built in ranges of parts (frontier_step.hpp): at once is one range. Several ranges
// are built one after another, each range's classes written to spill files before the next
// starts; the current generation is expanded once, the first range's successors kept in
// blocks and every other successor written to its range's file (SuccessorFiles), and each
// later range read back from its file. A range that runs out of memory is redone as two
// halves (read from its file, or expanded again).

#include <spdlog/spdlog.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "frontier/step/step_core.hpp"
#include "frontier/store/freed_memory.hpp"
#include "frontier/store/successor_files.hpp"

namespace knightstour::frontier_detail {

template <int K>
class InRanges {
 public:
  explicit InRanges(StepCore<K>& core) : c_(core) {}

  // Builds the step's parts in `passes` ranges of about equal parts. Returns how the step
  // ended when it ends here; nothing when every range is built.
  std::optional<StepEnd> build(std::size_t passes) {
    const std::size_t parts = c_.parts_;
    for (std::size_t i = 0; i < passes; ++i)
      ranges_.push_back({parts * i / passes, parts * (i + 1) / passes, i});
    c_.progress_.passes = static_cast<int>(passes);
    c_.progress_.pass = 0;
    if (passes > 1) {
      if (const auto end = expand_once_into_files()) return end;
    }
    while (!ranges_.empty()) {
      const Range range = ranges_.front();
      ranges_.pop_front();
      if (const auto end = build_range(range)) return end;
    }
    return std::nullopt;
  }
  // Whether it took more than one range (a range redone in halves counts).
  bool split() const { return c_.progress_.passes > 1; }

 private:
  using Expansions = typename StepCore<K>::Expansions;
  using Entry = typename StepCore<K>::Entry;
  using Totals = typename StepCore<K>::PassTotals;
  // A range of parts to build, and the range file holding its successors (write-once).
  struct Range {
    std::size_t lo, hi, file;
  };

  // Write-once: a step in several ranges expands `current` once, the successors of the first
  // range into memory (it is built first, from there) and every other successor to its
  // range's file; the other ranges are then built from their files. When the first range
  // does not fit beside the expansion after all, the expansion is redone with every range in
  // a file. Returns how the step ended when it ends here.
  std::optional<StepEnd> expand_once_into_files() {
    const std::size_t passes = ranges_.size();
    range_of_.resize(c_.parts_);
    for (const Range& r : ranges_) {
      for (std::size_t p = r.lo; p < r.hi; ++p) range_of_[p] = static_cast<std::uint32_t>(r.file);
    }
    unread_.assign(passes, 1);
    buffer_entries_ = io_buffer_bytes(c_.budget_.room(), passes) / sizeof(Entry);
    for (const std::size_t in_memory : {ranges_.front().hi, std::size_t{0}}) {
      files_.emplace(c_.spill_, passes);
      auto expansions = std::make_unique<Expansions>([&] {
        return Expansion<K>(*files_, range_of_, buffer_entries_, c_.rules_.slots, in_memory,
                            c_.rank_count_, c_.budget_, c_.combine_);
      });
      c_.abort_.clear();
      c_.progress_.expanded = 0;
      c_.expander_.expand(*expansions, 0, c_.parts_);
      c_.keep_combined(*expansions, 0);
      bool overflow = false;
      WideCount<K> step_closed;
      bool closed_wide = false;
      for (auto& e : *expansions) {
        if (!c_.abort_.raised()) e.writer->flush();
        e.writer.reset();  // gives its buffers back
        overflow = overflow || e.overflow;
        closed_wide = step_closed.add(e.closed) || closed_wide;
      }
      const std::uint32_t outcome = c_.agreed_outcome(overflow);
      if ((outcome & kOverflow) != 0) return c_.abandon(StepEnd::overflow);
      if ((outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0 && in_memory > 0) {
        spdlog::debug("step {}: the first range did not fit beside the expansion, expanded again",
                      c_.k_ + 1);
        ++c_.progress_.redone;
        expansions.reset();
        c_.budget_.clear_exceeded();
        continue;
      }
      if (outcome != 0) return c_.abandon(StepEnd::stopped);
      if (!c_.take_closed(step_closed, closed_wide)) return c_.abandon(StepEnd::overflow);
      if (in_memory > 0) first_range_ = std::move(expansions);
      break;
    }
    return std::nullopt;
  }

  // Reads range file `f` into the threads' blocks, keeping the successors of parts [lo, hi),
  // a record at a time; sets the abort flag when stopped or out of memory.
  void read_file(Expansions& expansions, std::size_t f, std::size_t lo, std::size_t hi) {
    const auto& records = files_->records(f);
    tbb::enumerable_thread_specific<ClassBuffer<K>> buffers(
        [this] { return ClassBuffer<K>(&c_.budget_); });
    tbb::parallel_for(std::size_t{0}, records.size(), [&](std::size_t i) {
      if (!c_.abort_.poll()) return;
      Expansion<K>& e = expansions.local();
      bool full = false;
      read_successor_record<K>(*files_, f, records[i], buffers.local(),
                               [&](std::uint64_t key, const WideCount<K>& count) {
                                 const std::size_t p = c_.part_of(key);
                                 if (p < lo || p >= hi || full) return;
                                 full = !e.blocks.add(p - lo, key, count);
                               });
      if (full) c_.abort_.raise();
    });
  }

  // Phase 1 of a range: its successors in each thread's blocks, read back from its file or
  // expanded again (the first range's are held already when the step expanded once).
  std::unique_ptr<Expansions> successors_of(std::size_t lo, std::size_t hi, std::size_t file) {
    std::unique_ptr<Expansions> held = std::move(first_range_);
    if (held) return held;
    held = std::make_unique<Expansions>(
        [&] { return Expansion<K>(hi - lo, c_.rank_count_, c_.budget_, c_.combine_); });
    if (files_) {
      read_file(*held, file, lo, hi);
    } else {
      c_.progress_.expanded = 0;
      c_.expander_.expand(*held, lo, hi);
      c_.keep_combined(*held, lo);
    }
    return held;
  }

  // The first range, held in memory since the expansion, did not fit its classes: its
  // successors go to its file, to be read back in halves like any other range.
  void write_to_file(Expansions& expansions, std::size_t lo, std::size_t hi) {
    spdlog::debug("step {}: the first range's successors go to its file", c_.k_ + 1);
    for (auto& e : expansions) {
      SuccessorWriter<K> writer(*files_, range_of_, buffer_entries_, c_.rules_.slots, c_.budget_);
      for (std::size_t p = lo; p < hi; ++p)
        e.blocks.for_each(p - lo, [&](const Entry& x) { writer.add(p, x.key, x.count); });
      writer.flush();
    }
  }

  // A range that ran out of memory: room made on disk, and the range put back as two halves.
  void redo_in_halves(const Range& range) {
    spdlog::debug("step {}: parts {}-{} did not fit, redone in two halves", c_.k_ + 1, range.lo,
                  range.hi - 1);
    ++c_.progress_.redone;
    c_.budget_.clear_exceeded();
    c_.spilled_.start(c_.current_, c_.next_);
    const std::size_t mid = range.lo + (range.hi - range.lo) / 2;
    ranges_.push_front({mid, range.hi, range.file});
    ranges_.push_front({range.lo, mid, range.file});
    if (files_) ++unread_[range.file];
    c_.progress_.passes = c_.progress_.passes + 1;
    c_.progress_.pass = c_.progress_.pass - 1;
  }

  // Builds the parts of `range` in two phases: its successors into each thread's blocks, then
  // each part aggregated by one task. A range that runs out of memory is put back as two
  // halves. Returns how the step ended when it ends here.
  std::optional<StepEnd> build_range(const Range& range) {
    const std::size_t lo = range.lo, hi = range.hi;
    c_.progress_.pass = c_.progress_.pass + 1;
    c_.abort_.clear();
    std::atomic<bool> overflow{false};
    const bool from_expansion = first_range_ != nullptr;
    std::unique_ptr<Expansions> held_here = successors_of(lo, hi, range.file);
    Expansions& expansions = *held_here;
    if (!c_.abort_.raised() && !c_.stop_.stopped())
      c_.aggregate(expansions, lo, hi, c_.next_.parts, overflow);
    // Successors of this pass's parts only: each pass keeps its own. A range file's are
    // counted as they were written (before its records merged equal keys), once it is built.
    const Totals pass = c_.end_pass(expansions, overflow);
    const std::uint64_t pass_successors = from_expansion || !files_ ? pass.successors : 0;

    const std::uint32_t outcome = c_.agreed_outcome(overflow.load());
    const bool out_of_memory = (outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0;
    if (from_expansion && out_of_memory && (outcome & kOverflow) == 0 && hi - lo > 1)
      write_to_file(expansions, lo, hi);
    held_here.reset();  // gives the blocks back to the system (huge_chunks.hpp)
    // Freed tables would otherwise stay resident in the threads' heaps beside the classes
    // the next pass or step allocates (small steps reuse them; trimming would cost faults).
    if (pass.tables > kTrimAfterBytes) return_freed_memory();
    if ((outcome & (kAborted | kStopped | kOverflow)) != 0) {
      for (std::size_t p = lo; p < hi; ++p) {
        c_.budget_.release(c_.next_.parts[p].memory_bytes());
        c_.next_.parts[p] = {};
      }
      if ((outcome & kOverflow) != 0) return c_.abandon(StepEnd::overflow);
      if (!out_of_memory || !c_.spill_.enabled() || hi - lo == 1)
        return c_.abandon(StepEnd::stopped);
      redo_in_halves(range);
      return std::nullopt;
    }
    c_.successors_ += pass_successors;
    if (files_ && --unread_[range.file] == 0) {
      c_.successors_ += files_->successors(range.file);
      files_->drop(range.file);
    }
    if (!c_.closed_taken_ && !c_.take_closed(pass.closed, pass.closed_wide))
      return c_.abandon(StepEnd::overflow);
    if (c_.spilled_.started()) {
      c_.spilled_.spill(c_.next_, lo, hi);
      return_freed_memory();
    }
    return std::nullopt;
  }

  StepCore<K>& c_;
  std::deque<Range> ranges_;  // still to build, in order
  // Write-once (a step in several ranges):
  std::optional<SuccessorFiles> files_;
  std::vector<std::uint32_t> range_of_;      // the range of each part
  std::vector<int> unread_;                  // ranges still to be built from each file
  std::size_t buffer_entries_ = 0;           // of each range's buffer in a thread's writer
  std::unique_ptr<Expansions> first_range_;  // the first range's successors, when in memory
};

}  // namespace knightstour::frontier_detail
