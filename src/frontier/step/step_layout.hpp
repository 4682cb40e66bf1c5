#pragma once

// How a step is to be built, planned before it starts: at once, in ranges of parts, or in
// slices of the current generation (setting it aside or not). frontier_step.hpp builds it.

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "frontier/step/choice_plans.hpp"
#include "frontier/step/step_core.hpp"
#include "frontier/step/step_plan.hpp"
#include "frontier/store/freed_memory.hpp"

namespace knightstour::frontier_detail {

// What the plan chose. `strategy` is what the step is planned as (sliced_setting_aside when
// its slices may set the current generation aside); what it took in the end is counted by
// the step as it finishes (a step that runs out is built otherwise).
struct StepLayout {
  StepStrategy strategy = StepStrategy::at_once;
  std::size_t passes = 1;  // ranges of parts, built one after another
  std::size_t slices = 1;  // slices of the current generation
  std::uint64_t need = 0;  // bytes the step needs unsliced (for ranges, should slices fail)
};

template <int K>
class StepPlanner {
 public:
  explicit StepPlanner(StepCore<K>& core) : c_(core) {}

  // Parts, ranges or slices for the step `forecast` describes. Where it plans spill files,
  // the current generation goes to them now (the step's spill started).
  StepLayout plan(const StepForecast& forecast) {
    c_.combine_ = combines(forecast);
    const auto kept = static_cast<std::uint64_t>(static_cast<double>(forecast.successors) *
                                                 (c_.combine_ ? forecast.kept_share : 1.0));
    const std::uint64_t successors = c_.distributed() ? c_.ranks_->max(kept) : kept;
    int bits = part_bits(successors);
    if (c_.spill_.enabled()) {
      bits = part_bits_within(bits, successors, c_.budget_.room(),
                              [](std::uint64_t n) { return AggregationTable<K>::bytes_for(n); });
      if (c_.distributed())
        bits = static_cast<int>(c_.ranks_->max(static_cast<std::uint64_t>(bits)));
    }
    c_.set_parts(bits);
    StepLayout layout;
    c_.expected_ = forecast.successors;
    const bool may_slice =
        !c_.distributed() && c_.current_.parts.size() > 1 && c_.forced_slices_ != 1;
    if (c_.spill_.enabled() || may_slice) plan_pass(forecast, may_slice, layout);
    if (c_.distributed()) layout.passes = static_cast<std::size_t>(c_.ranks_->max(layout.passes));
    if (layout.slices > 1) {
      if (layout.strategy != StepStrategy::sliced_setting_aside)
        layout.strategy = StepStrategy::sliced;
    } else {
      layout.strategy = layout.passes > 1 ? StepStrategy::in_ranges : StepStrategy::at_once;
    }
    trim_idle(forecast, layout.passes * layout.slices);
    return layout;
  }

 private:
  // Whether the step's successors go through the threads' combiners (successor_combiner.hpp):
  // when it is forecast to need more than a quarter of the room. The combiner keeps a fifth
  // fewer successors for 1.05-1.07x the CPU of a count (7x8 closed), a price paid only where
  // memory may bind (results/frontier/combiner.md).
  bool combines(const StepForecast& forecast) const {
    const std::uint64_t need =
        step_bytes<K>(forecast.successors, forecast.classes_per_successor, forecast.bytes_per_class,
                      forecast.bytes_per_successor);
    return static_cast<double>(need) > static_cast<double>(c_.budget_.room()) * kCombineFrom;
  }
  static constexpr double kCombineFrom = 0.25;

  // Ranges as many as the step needs, with room to spare (StepForecast, step_plan.hpp); or
  // slices (slices_for), which keep the step in memory where ranges would spill it.
  void plan_pass(const StepForecast& forecast, bool may_slice, StepLayout& layout) {
    std::uint64_t successors = forecast.successors;  // made, before any is combined
    const double share = c_.combine_ ? forecast.kept_share : 1.0;
    auto kept = [&] { return static_cast<std::uint64_t>(static_cast<double>(successors) * share); };
    auto need_for = [&] {
      return step_bytes<K>(kept(), forecast.classes_per_successor / share, forecast.bytes_per_class,
                           forecast.bytes_per_successor);
    };
    MemoryBudget& budget = c_.budget_;  // its room grows when the current generation spills
    layout.need = need_for();
    if (worth_sampling(layout.need, budget.room())) {
      successors = sampled_successors(c_.rules_, c_.rule_, c_.current_);
      layout.need = need_for();
    }
    c_.expected_ = successors;
    spdlog::debug(
        "step {}: {} successors expected at {:.1f} bytes (0: not known yet), {:.2f} "
        "classes each; {}",
        c_.k_ + 1, successors, forecast.bytes_per_successor, forecast.classes_per_successor,
        c_.combine_ ? fmt::format("combined, {:.2f} of them kept", share) : "not combined");
    // The successors' bytes and the next generation's, apart.
    const auto successor_bytes = static_cast<double>(
        step_bytes<K>(kept(), 0, forecast.bytes_per_class, forecast.bytes_per_successor));
    const double next_bytes = static_cast<double>(layout.need) - successor_bytes;
    const std::size_t parts = c_.current_.parts.size();
    const std::size_t forced = c_.forced_slices_;
    auto plan_slices = [&] {
      if (!may_slice) return std::size_t{1};
      if (forced > 1) return std::min(forced, parts);
      return std::min(
          slices_for(successor_bytes, next_bytes, static_cast<double>(c_.current_.rest_bytes()),
                     static_cast<double>(budget.room()),
                     c_.spill_.enabled() ? kPassFill : kSliceWithoutSpill),
          parts);
    };
    const auto current = static_cast<double>(c_.current_.memory_bytes());
    bool aside = false;  // the slices set the current generation aside as they go
    auto need_now = [&] {
      if (layout.slices == 1) return layout.need;
      return static_cast<std::uint64_t>(
          aside ? aside_need(successor_bytes, next_bytes, current, layout.slices)
                : sliced_need(successor_bytes, next_bytes, layout.slices));
    };
    // Slices that set the current generation aside as they go (aside_need): the fewest that
    // fit, or those forced when they fit; 1 when none do.
    auto plan_aside = [&] {
      if (!may_slice) return std::size_t{1};
      std::size_t slices = slices_setting_aside(successor_bytes, next_bytes, current,
                                                static_cast<double>(budget.room()));
      if (forced > 1) {
        slices = std::min(forced, parts);
        if (aside_need(successor_bytes, next_bytes, current, slices) >
            static_cast<double>(budget.room()))
          slices = 1;
      }
      return slices <= parts ? slices : std::size_t{1};
    };
    layout.slices = plan_slices();
    // Without spill files a step that does not fit at once has only slices: all it can have.
    if (layout.slices == 1 && may_slice && !c_.spill_.enabled() &&
        !fits_one_pass(layout.need, budget.room()))
      layout.slices = std::min(kMaxSlices, parts);
    if (!fits_one_pass(need_now(), budget.room()) && c_.spill_.enabled()) {
      if (const std::size_t slices = plan_aside(); slices > 1) {
        layout.slices = slices;
        layout.strategy = StepStrategy::sliced_setting_aside;
        aside = true;
      } else {
        c_.spilled_.start(c_.current_, c_.next_);  // frees what the current generation held
        return_freed_memory();
        layout.slices = plan_slices();
        if (layout.slices > 1 && !fits_one_pass(need_now(), budget.room())) layout.slices = 1;
        if (layout.slices == 1) layout.passes = ranges_for(layout.need, budget.room(), c_.parts_);
      }
    }
    spdlog::debug("step {}: {:.0f} MB expected, {:.0f} MB of room, {} ranges, {} slices{}",
                  c_.k_ + 1, StepCore<K>::mb(need_now()), StepCore<K>::mb(budget.room()),
                  layout.passes, layout.slices,
                  aside ? ", the current generation set aside if they need" : "");
  }

  // Before a step, idle scratch chunks past what its successors are expected to fill, with
  // half as much again, are unmapped: chunks that an earlier, bigger step or sweep left would
  // otherwise sit idle, resident and counted, beside this step's generations at its fullest
  // moment (8x8 closed: 5.5 GB idle beside 2.15 GB of successors). A step that makes more
  // faults fresh chunks in.
  void trim_idle(const StepForecast& forecast, std::size_t passes) {
    constexpr double kMargin = 1.5;
    MemoryBudget& budget = c_.budget_;
    const double share = c_.combine_ ? forecast.kept_share : 1.0;
    const auto kept = static_cast<std::uint64_t>(static_cast<double>(c_.expected_) * share);
    const double blocks = kMargin *
                          static_cast<double>(step_bytes<K>(kept, 0, forecast.bytes_per_class,
                                                            forecast.bytes_per_successor)) /
                          static_cast<double>(passes);
    // Each thread's open blocks (one a part) and the chunk it is filling.
    const auto threads = static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency());
    const std::uint64_t open =
        threads * (c_.parts_ * sizeof(typename SuccessorBlocks<K>::Block) + budget.chunk_bytes());
    const std::uint64_t idle = budget.idle_bytes();
    budget.trim_idle(static_cast<std::uint64_t>(blocks) + open);
    if (budget.idle_bytes() < idle)
      spdlog::debug("step {}: {:.1f} MB of idle scratch unmapped, {:.1f} MB kept", c_.k_ + 1,
                    StepCore<K>::mb(idle - budget.idle_bytes()),
                    StepCore<K>::mb(budget.idle_bytes()));
  }

  StepCore<K>& c_;
};

}  // namespace knightstour::frontier_detail
