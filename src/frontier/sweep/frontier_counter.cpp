#include "frontier/sweep/frontier_counter.hpp"

#include <spdlog/spdlog.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "frontier/progress/room_warning.hpp"
#include "frontier/ranks/rank_clock.hpp"
#include "frontier/step/frontier_step.hpp"
#include "frontier/store/generation_store.hpp"
#include "knightstour/base/threads.hpp"

namespace knightstour {

namespace {

using Clock = std::chrono::steady_clock;
using frontier_detail::keeps_freed_heap_crowded;
using frontier_detail::return_freed_memory;
using frontier_detail::StepEnd;
using frontier_detail::StepProgress;

// What the steps so far say of the next: successors per class (sizes the step's parts) and
// distinct classes per successor (plans its passes).
class StepForecaster {
 public:
  explicit StepForecaster(int squares, int width)
      : width_(width), merging_at_(static_cast<std::size_t>(squares), 0) {}

  template <int K>
  frontier_detail::StepForecast forecast(int k, const Generation<K>& current) const {
    return {static_cast<std::uint64_t>(branching_ * static_cast<double>(current.size())),
            merging_like(k), frontier_detail::next_bytes_per_class(current),
            kSuccessorMargin * successor_bytes_, kept_share_};
  }
  // successors: those step k made (combined or not); measured: what else it measured.
  void learn(int k, std::uint64_t expanded, std::uint64_t successors, std::uint64_t next_size,
             const frontier_detail::StepMeasures& measured) {
    if (measured.successor_bytes > 0) successor_bytes_ = measured.successor_bytes;
    if (measured.kept_share > 0) kept_share_ = measured.kept_share;
    if (expanded > 0) branching_ = static_cast<double>(successors) / static_cast<double>(expanded);
    if (successors > 0) {
      merging_at_[static_cast<std::size_t>(k)] =
          static_cast<double>(next_size) / static_cast<double>(successors);
    }
  }

 private:
  // A step's passes are planned from the step a column before, else from the step before,
  // else 1 (0: not seen in this session).
  double merging_like(int k) const {
    for (const int before : {k - width_, k - 1}) {
      if (before >= 0 && merging_at_[static_cast<std::size_t>(before)] > 0)
        return merging_at_[static_cast<std::size_t>(before)];
    }
    return 1.0;
  }

  // Counts grow from step to step, and with them a successor's bytes: by about 1% a step
  // (8x8 closed: 9.0 bytes at step 36, 9.5 at step 44).
  static constexpr double kSuccessorMargin = 1.05;

  int width_;
  double branching_ = 4;        // successors per class in the last step
  double successor_bytes_ = 0;  // bytes a successor took in blocks in the last step that held any
  double kept_share_ = 1;       // successors kept of those made, in the last step that made any
  std::vector<double> merging_at_;
};

// Why a step stopped; ranks stop together, for the gravest reason any of them had.
StopReason stop_reason_of(const MemoryBudget& budget, const StopControl& stop, Ranks* ranks) {
  StopReason reason = budget.exceeded() ? StopReason::memory : stop.reason();
  if (ranks) {
    reason =
        static_cast<StopReason>(ranks->max(static_cast<std::uint64_t>(static_cast<int>(reason))));
  }
  return reason == StopReason::none ? StopReason::signal : reason;
}

// Warns (once, at the end of some columns: DiskRoomWarning) when the spill directory looks
// too small for the rest of the sweep, projected from the classes after each step so far.
template <int K>
void warn_if_disk_short(frontier_detail::DiskRoomWarning& room,
                        const std::vector<std::uint64_t>& sizes, const Generation<K>& current,
                        int k, const StepRules& rules, std::uint64_t budget,
                        const FrontierOptions& options, Ranks* ranks) {
  if (!room.due(k, rules.width, rules.squares)) return;
  const double rest = current.size() == 0 ? 0.0
                                          : static_cast<double>(current.rest_bytes()) /
                                                static_cast<double>(current.size());
  room.check(sizes, k, rules.width, rules.squares, rest, budget, options.spill_dir,
             ranks ? 1.0 / ranks->size() : 1.0);
}

// Runs the last step of each shorter board that ends at step k aside, on the generation
// before the sweep's own step k (shorter_boards.hpp), into `counts`. The generation is only
// read; what a step aside makes besides its cycles (nothing: a last step keeps no
// successor) is dropped.
template <int K>
StepEnd count_shorter_boards(const frontier_detail::StepContext& step, int k,
                             Generation<K>& current, const frontier_detail::StepForecast& forecast,
                             const ShorterBoards& shorter, ShorterCounts& counts) {
  counts.resize(shorter.rules.size());
  for (std::size_t i = 0; i < shorter.rules.size(); ++i) {
    const StepRules& rules = shorter.rules[i];
    if (rules.squares - 1 != k) continue;
    const frontier_detail::StepContext aside{rules,         step.budget, step.spill, step.stop,
                                             step.progress, step.kernel, step.ranks};
    Generation<K> none;
    WideCount<K> closed;
    std::uint64_t successors = 0;
    const StepEnd end =
        frontier_detail::run_step(aside, k, current, none, forecast, closed, successors);
    step.budget.release(none.memory_bytes());
    if (end != StepEnd::done) return end;
    counts[i] = reported(closed);
    if (shorter.counted) shorter.counted(i, *counts[i]);
  }
  return StepEnd::done;
}

// The counter for counts of K limbs; returns false when the counts outgrew K limbs (the
// caller continues wider from `state`).
template <int K>
bool run_steps(frontier_detail::StepContext step, FrontierState& state,
               const FrontierOptions& options, frontier_detail::DiskRoomWarning& room,
               FrontierResult& result) {
  const StepRules& rules = step.rules;
  MemoryBudget& budget = step.budget;
  StepProgress& progress = step.progress;
  Generation<K> current = std::move(std::get<Generation<K>>(state.classes));
  result.limbs = K;
  Ranks* ranks = several_ranks(options.ranks);
  // The step's collective calls go through a clock: busy = wall - waited, per rank.
  std::optional<frontier_detail::RankClock> clock;
  if (ranks) clock.emplace(*ranks);
  // Classes of the generation over all ranks (what the progress line and the result show).
  auto everywhere = [&](std::uint64_t mine) { return ranks ? ranks->sum(mine) : mine; };
  std::uint64_t size_now = everywhere(current.size());
  StepForecaster forecaster(rules.squares, rules.width);
  step.kernel = options.bit_kernel();
  step.slices = options.slices;
  step.ranks = clock ? &*clock : nullptr;
  step.widest = &result.widest_step;
  frontier_detail::StepMeasures measured;
  step.measured = &measured;
  while (state.next_step < rules.squares && state.next_step != options.until_step) {
    const int k = state.next_step;
    progress.step = k;
    progress.current = size_now;
    progress.expanded = 0;
    progress.passes = 1;
    Generation<K> next;
    WideCount<K> closed;
    std::uint64_t successors = 0;
    const frontier_detail::StepForecast forecast = forecaster.forecast(k, current);
    if (options.shorter != nullptr && !options.shorter->rules.empty()) {
      const StepEnd aside =
          count_shorter_boards(step, k, current, forecast, *options.shorter, result.shorter);
      if (aside == StepEnd::overflow) {
        state.classes = std::move(current);
        return false;
      }
      if (aside == StepEnd::stopped) {
        result.stop_reason = stop_reason_of(budget, step.stop, ranks);
        state.classes = std::move(current);
        return true;
      }
      if (k == options.shorter->rules.back().squares - 1) {  // the last one counted
        result.complete = true;
        break;
      }
    }
    const auto step_started = Clock::now();
    const std::uint64_t sent_before = progress.exchanged.load();
    const StepEnd end =
        frontier_detail::run_step(step, k, current, next, forecast, closed, successors);
    if (end == StepEnd::overflow) {
      state.classes = std::move(current);
      return false;
    }
    if (end == StepEnd::stopped) {
      result.stop_reason = stop_reason_of(budget, step.stop, ranks);
      state.classes = std::move(current);
      return true;
    }
    if (clock) {
      const double wall = std::chrono::duration<double>(Clock::now() - step_started).count();
      progress.ranks_step_done(frontier_detail::gather_rank_step(
          *ranks, k, wall - clock->take_waited(), progress.exchanged.load() - sent_before));
    }
    const std::uint64_t expanded_everywhere = size_now;
    forecaster.learn(k, current.size(), successors, next.size(), measured);
    result.expanded += expanded_everywhere;
    result.max_passes = std::max(result.max_passes, progress.passes.load());
    const std::uint64_t freed = current.memory_bytes();
    budget.release(freed);
    current = std::move(next);
    size_now = everywhere(current.size());
    // The freed generation stays in the heap for the next one to reuse (trimming makes every
    // page of it fault again), unless it, beside what is held, could crowd the budget.
    if (progress.passes.load() > 1 || keeps_freed_heap_crowded(budget, freed))
      return_freed_memory();
    state.next_step = k + 1;
    result.steps_done = state.next_step;
    result.steps_seconds = std::chrono::duration<double>(Clock::now() - progress.started).count();
    result.classes.push_back(size_now);
    if ((k + 1) % rules.width == 0 && (ranks == nullptr || ranks->rank() == 0)) {
      // A sweep's profile by column (how a row's classes grow and settle) in the debug log.
      spdlog::debug("column {} of {}: {} classes, {:.1f} s into the sweep", (k + 1) / rules.width,
                    rules.squares / rules.width, size_now, result.steps_seconds);
    }
    progress.step_done(expanded_everywhere, size_now);
    if (size_now >= result.peak_classes) result.peak_rest_bytes = everywhere(current.rest_bytes());
    result.peak_classes = std::max(result.peak_classes, size_now);
    if (step.spill.enabled() && (ranks == nullptr || ranks->rank() == 0))
      warn_if_disk_short(room, result.classes, current, k, rules, budget.limit(), options, ranks);
    if (k == rules.squares - 1) {
      result.count = reported(closed);
      result.complete = true;
    } else if (options.after_step) {
      state.classes = std::move(current);
      options.after_step(state);
      current = std::move(std::get<Generation<K>>(state.classes));
    }
  }
  state.classes = std::move(current);
  return true;
}

// The state a new sweep starts from: before square 0, T free (open tours) or done (cycles),
// every window slot without a square; one class in all (on rank 0 of several).
FrontierState starting_state(const StepRules& rules, const FrontierTarget& target,
                             const FrontierOptions& options) {
  Frontier empty;
  empty.done = ((1u << rules.slots) - 1) & ~(target.closed ? 0u : 1u);
  empty.free = target.closed ? 0u : 1u;
  Generation<1> first;
  first.parts.resize(1);
  if (options.ranks == nullptr || options.ranks->rank() == 0) {
    first.parts[0] = part_of<1>({pack(empty, rules.slots)}, {WideCount<1>{{1}}}, rules.slots);
  }
  FrontierState state;
  state.classes = std::move(first);
  return state;
}

// What the job's progress line shows of a sweep. The projection of the classes left is too
// rough in the first two columns (results/frontier/outlook-fit.md fits it from column 4 on),
// so no time is projected before the third.
SweepSnapshot snapshot_of(const StepProgress& progress, const StepRules& rules,
                          const MemoryBudget& budget, const SpillArea& spill,
                          const std::string& label, Clock::time_point started) {
  SweepSnapshot s;
  s.label = label;
  s.step = progress.step.load();
  s.steps = rules.squares;
  s.width = rules.width;
  s.pass = progress.pass.load();
  s.passes = progress.passes.load();
  s.classes = progress.current.load();
  s.budget_gib = static_cast<double>(budget.used()) / 1.073741824e9;
  s.spilled_gib = static_cast<double>(spill.bytes_written()) / 1.073741824e9;
  const frontier_detail::RankStep r = progress.ranks_step();
  s.ranks_step = r.step;
  s.step_exchanged_gib = static_cast<double>(r.exchanged) / 1.073741824e9;
  s.slowest_rank = r.slowest;
  s.slowest_busy = r.slowest_busy;
  s.fastest_busy = r.fastest_busy;
  auto [sizes, expanded_before] = progress.history();
  const std::uint64_t done = expanded_before + progress.expanded.load();
  if (done > 0 && s.step >= 2 * rules.width) {
    if (sizes.empty()) sizes.push_back(s.classes);
    const SweepOutlook outlook =
        sweep_outlook(sizes, s.step, rules.squares, rules.width,
                      s.classes - std::min(s.classes, progress.expanded.load()));
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    s.seconds_left = outlook.classes_left * elapsed / static_cast<double>(done);
  }
  return s;
}

// A sweep's totals once it ends or stops: memory, spill and exchange (over every rank), and
// when stopped, the outlook of what is left.
void add_sweep_figures(FrontierResult& result, const FrontierState& state, const StepRules& rules,
                       const MemoryBudget& budget, const SpillArea& spill,
                       const StepProgress& progress, const FrontierOptions& options) {
  result.peak_bytes = budget.peak();
  result.spilled_bytes = spill.bytes_written();
  result.ranges_redone = progress.redone.load();
  for (int s = 0; s < kStepStrategies; ++s)
    result.steps_by_strategy[static_cast<StepStrategy>(s)] = progress.by_strategy[s].load();
  result.exchanged_bytes = progress.exchanged.load();
  if (Ranks* ranks = several_ranks(options.ranks)) {  // (expanded is a total already)
    result.spilled_bytes = ranks->sum(result.spilled_bytes);
    result.exchanged_bytes = ranks->sum(result.exchanged_bytes);
    result.peak_bytes = ranks->max(result.peak_bytes);
    result.max_passes = static_cast<int>(ranks->max(static_cast<std::uint64_t>(result.max_passes)));
  }
  if (!result.complete) {
    // The step it stopped in is redone whole, so all of its classes are still to expand.
    const std::uint64_t now = classes_in(state.classes);
    std::vector<std::uint64_t> sizes = result.classes;
    if (sizes.empty()) sizes.push_back(now);
    result.outlook = sweep_outlook(sizes, state.next_step, rules.squares, rules.width, now);
  }
}

}  // namespace

FrontierResult run_frontier(const Sweep& sweep, const FrontierTarget& target,
                            const FrontierOptions& options, StopControl& stop,
                            std::optional<FrontierState> resume) {
  const auto started = Clock::now();
  // One process polls its time limit and signals while it makes the rules; ranks make them
  // whole and stop together at a step.
  const bool alone = several_ranks(options.ranks) == nullptr;
  // A sweep that counts shorter boards on its way runs the rules all of them allow.
  const bool every_board = options.shorter != nullptr && !options.shorter->rules.empty();
  const StepRules rules =
      every_board
          ? rules_for_every_board(*options.shorter)
          : make_step_rules(sweep, target, options.fold_mirror,
                            alone ? std::function<bool()>([&] { return stop.poll(); }) : nullptr);
  if (every_board && rules.squares != sweep.size()) {
    throw std::logic_error("a sweep of every length must be as long as its longest board");
  }
  FrontierResult result;
  result.steps = rules.squares;
  if (rules.stopped) {
    result.stop_reason = stop.reason() == StopReason::none ? StopReason::signal : stop.reason();
    result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return result;
  }
  MemoryBudget budget(options.memory_budget);
  SpillArea spill(options.spill_dir);
  frontier_detail::DiskRoomWarning room;
  FrontierState state = resume ? std::move(*resume) : starting_state(rules, target, options);
  budget.charge(memory_bytes_of(state.classes));
  if (options.idle_chunks != nullptr) budget.share_idle(*options.idle_chunks);

  StepProgress progress;
  progress.started = started;
  auto snapshot = [&] {
    return snapshot_of(progress, rules, budget, spill, options.label, started);
  };
  struct Watching {
    SweepWatch* watch;
    ~Watching() {
      if (watch != nullptr) watch->stop_watching();
    }
  } watching{options.watch};
  if (options.watch != nullptr) options.watch->watch(snapshot);
  {
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(std::max(options.threads, 1)));
    check_threads_can_start(
        std::max(options.threads, 1),
        tbb::global_control::active_value(tbb::global_control::thread_stack_size));
    tbb::task_arena arena(std::max(options.threads, 1));
    arena.execute([&] {
      while (true) {
        const bool finished = std::visit(
            [&](auto& g) {
              return run_steps<std::decay_t<decltype(g)>::kLimbs>(
                  {rules, budget, spill, stop, progress}, state, options, room, result);
            },
            state.classes);
        if (finished) break;
        // The counts outgrew their limbs: the same step again, twice as wide.
        std::visit(
            [&](auto& g) {
              using G = std::decay_t<decltype(g)>;
              if constexpr (G::kLimbs < kMaxLimbs) {
                state.classes = widened(std::move(g));
              } else {
                throw CountTooWide();
              }
            },
            state.classes);
      }
    });
  }
  add_sweep_figures(result, state, rules, budget, spill, progress, options);
  if (!result.complete && result.stop_reason == StopReason::none &&
      state.next_step == options.until_step) {
    result.paused = std::move(state);
  } else if (!result.complete && result.stop_reason != StopReason::none) {
    result.stopped_at = std::move(state);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace knightstour
