#pragma once

// A step built in slices (frontier_step.hpp): the current generation's parts expanded a slice
// at a time, each slice's successors aggregated into partial parts and given back, and the
// partial parts merged into the next generation at the end (partial_merge.hpp). It holds a
// slice's successors beside the partial parts, not every successor, and stays in memory where
// ranges would spill. Setting aside: when the partial parts fit only in place of the current
// generation, its parts are set aside to spill files as their slice is expanded (write-only:
// read back only when the step does not finish), and the next generation stays in memory.

#include <spdlog/spdlog.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "frontier/step/partial_merge.hpp"
#include "frontier/step/step_core.hpp"
#include "frontier/step/step_layout.hpp"
#include "frontier/store/freed_memory.hpp"

namespace knightstour::frontier_detail {

template <int K>
class InSlices {
 public:
  InSlices(StepCore<K>& core, const StepLayout& layout)
      : c_(core),
        slices_(layout.slices),
        set_aside_(layout.strategy == StepStrategy::sliced_setting_aside) {}

  // Out of room with spill files: the step is to be built in ranges instead (`next` empty).
  bool out_of_room() const { return sliced_out_of_room_; }
  // How it was built, once it is.
  StepStrategy strategy() const {
    return aside_started_ ? StepStrategy::sliced_setting_aside : StepStrategy::sliced;
  }

  // A sliced step: the current generation's parts expanded a slice at a time (slices_ of
  // about equal classes), each slice's successors aggregated into partial parts in MergeOrder
  // and given back, and the slice's parts of the current generation set aside when planned
  // so (set_aside_); then each part of the next generation merged from its partial parts,
  // which are freed as it goes. Returns how the step ended when it ends here; out of room
  // (sliced_out_of_room_, with spill files to build it in ranges instead), it returns nothing
  // with `next` empty. However it ends, the parts set aside are in their files after.
  std::optional<StepEnd> build() {
    const auto end = slice_and_merge();
    c_.spilled_.end_aside(c_.current_);
    return end;
  }

 private:
  using Expansions = typename StepCore<K>::Expansions;
  using Totals = typename StepCore<K>::PassTotals;

  std::optional<StepEnd> slice_and_merge() {
    partials_.assign(slices_, std::vector<ClassPart>(c_.parts_));
    WideCount<K> step_closed;
    bool closed_wide = false;
    std::atomic<bool> overflow{false};
    c_.progress_.passes = 1;
    c_.progress_.pass = 1;
    c_.progress_.expanded = 0;
    const std::uint64_t total = c_.current_.size();
    std::size_t from = 0;
    std::uint64_t before = 0;  // classes of the parts before `from`
    for (std::size_t s = 0; s < slices_; ++s) {
      std::size_t to = from;
      const std::uint64_t want = total * (s + 1) / slices_;
      while (to < c_.current_.parts.size() && (before < want || s + 1 == slices_))
        before += c_.current_.parts[to++].size();
      c_.abort_.clear();
      auto expansions = std::make_unique<Expansions>(
          [&] { return Expansion<K>(c_.parts_, c_.rank_count_, c_.budget_, c_.combine_); });
      c_.expander_.expand(*expansions, 0, c_.parts_, from, to);
      c_.keep_combined(*expansions, 0);
      if (!c_.abort_.raised() && !c_.stop_.stopped())
        c_.aggregate(*expansions, 0, c_.parts_, partials_[s], overflow, true);
      const Totals pass = c_.end_pass(*expansions, overflow, partial_bytes());
      closed_wide = step_closed.add(pass.closed) || pass.closed_wide || closed_wide;
      c_.successors_ += pass.successors;
      slice_bytes_ = pass.blocks;
      expansions.reset();  // gives the blocks back
      if (pass.tables > kTrimAfterBytes) return_freed_memory();
      if (const auto end = end_of_slices(c_.agreed_outcome(overflow.load()))) return end;
      if (sliced_out_of_room_) return std::nullopt;
      // (The last slice's parts stay: the merge makes no more than the partial parts held.)
      if (set_aside_ && s + 1 < slices_ && aside_due(pass.tables)) {
        if (!aside_started_) {
          aside_started_ = true;
          spdlog::debug("step {}: the current generation set aside from slice {} of {}", c_.k_ + 1,
                        s + 1, slices_);
        }
        c_.spilled_.set_aside(c_.current_, aside_from_, to);
        aside_from_ = to;
        return_freed_memory();
      }
      from = to;
    }
    merge_partials(overflow);
    if (const auto end = end_of_slices(c_.agreed_outcome(overflow.load()))) return end;
    if (sliced_out_of_room_) return std::nullopt;
    if (!c_.take_closed(step_closed, closed_wide)) return c_.abandon(StepEnd::overflow);
    if (c_.spilled_.started()) {
      c_.spilled_.spill(c_.next_, 0, c_.parts_);
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
    const std::uint64_t partial = partial_bytes();
    const std::uint64_t grown = partial - std::min(partial, partial_before_);
    partial_before_ = partial;
    if (aside_started_) return true;
    const std::uint64_t idle = c_.budget_.idle_bytes();
    const std::uint64_t fresh = slice_bytes_ - std::min(slice_bytes_, idle);
    const auto next_slice = static_cast<double>(c_.budget_.used() + grown + fresh + tables);
    return next_slice > static_cast<double>(c_.budget_.limit()) * kPassFill;
  }

  // Each part of the next generation merged from its partial parts (merge_parts), which are
  // freed as it goes. Raises c_.abort_ when the budget cannot hold a part.
  void merge_partials(std::atomic<bool>& overflow) {
    struct Scratch {
      Scratch(int slots, std::size_t n, MemoryBudget* budget) : writer(slots) {
        for (std::size_t i = 0; i < n; ++i) buffers.emplace_back(budget);
      }
      PartWriter<K> writer;
      std::vector<ClassBuffer<K>> buffers;
    };
    tbb::enumerable_thread_specific<Scratch> scratch(
        [&] { return Scratch(c_.rules_.slots, slices_, &c_.budget_); });
    c_.abort_.clear();
    tbb::parallel_for(std::size_t{0}, c_.parts_, [&](std::size_t p) {
      if (!c_.abort_.poll()) return;
      Scratch& local = scratch.local();
      std::vector<const ClassPart*> in;
      for (const auto& slice : partials_) in.push_back(&slice[p]);
      bool wide = false;
      ClassPart part = merge_parts<K>(in, c_.rules_.slots, AggregationTable<K>::kBucketBits,
                                      local.writer, local.buffers, wide);
      if (wide) overflow = true;
      for (auto& slice : partials_) {
        c_.budget_.release(slice[p].memory_bytes());
        slice[p] = {};
      }
      if (!c_.budget_.reserve(part.memory_bytes())) {
        c_.abort_.raise();
        return;
      }
      c_.next_.parts[p] = std::move(part);
    });
  }

  // How a sliced step ends after a slice or the merge with `outcome`, when it ends there:
  // partial parts and `next` given back; out of room with spill files, nothing, and
  // sliced_out_of_room_ set: the caller stops slicing, and the step is built in ranges.
  std::optional<StepEnd> end_of_slices(std::uint32_t outcome) {
    if (outcome == 0) return std::nullopt;
    for (auto& slice : partials_) {
      for (auto& part : slice) c_.budget_.release(part.memory_bytes());
    }
    partials_.clear();
    for (auto& part : c_.next_.parts) {
      c_.budget_.release(part.memory_bytes());
      part = {};
    }
    if ((outcome & kOverflow) != 0) return c_.abandon(StepEnd::overflow);
    const bool out_of_memory = (outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0;
    if (!out_of_memory || !c_.spill_.enabled()) return c_.abandon(StepEnd::stopped);
    c_.budget_.clear_exceeded();
    sliced_out_of_room_ = true;
    return std::nullopt;
  }

  // The bytes of the partial parts, all slices'.
  std::uint64_t partial_bytes() const {
    std::uint64_t partial = 0;
    for (const auto& slice : partials_) {
      for (const auto& part : slice) partial += part.memory_bytes();
    }
    return partial;
  }

  StepCore<K>& c_;
  const std::size_t slices_;
  const bool set_aside_;             // the slices may set the current generation aside
  bool aside_started_ = false;       // and have begun to (aside_due)
  bool sliced_out_of_room_ = false;  // ran out: built in ranges instead
  // Each slice's partial parts of the next generation.
  std::vector<std::vector<ClassPart>> partials_;
  // Setting aside (aside_due): the first part of the current generation not set aside, the
  // partial parts' bytes after the slice before, the last slice's blocks.
  std::size_t aside_from_ = 0;
  std::uint64_t partial_before_ = 0;
  std::uint64_t slice_bytes_ = 0;
};

}  // namespace knightstour::frontier_detail
