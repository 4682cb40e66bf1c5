#include "frontier/grid/grid_by_pass.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

#include "frontier/grid/backward_pass.hpp"
#include "frontier/grid/start_squares.hpp"
#include "frontier/sweep/budget_shares.hpp"
#include "frontier/sweep/job_report.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour {

namespace frontier_detail {

namespace {

struct OutOfRoom {
  const char* what;
};

// The unpinned sweep with every generation kept for the pass (each column's first when they
// do not all fit): throws OutOfRoom when even those outgrow `kept`'s room or went to spill
// files, or when the sweep outgrew its own share of the budget. Nothing when it stopped
// before its first step (its figures are in `report`).
std::optional<FrontierResult> kept_sweep(const Sweep& plain, FrontierOptions o,
                                         KeptGenerations& kept, StopControl& stop,
                                         FrontierReport& report) {
  const FrontierTarget unpinned{false, std::nullopt};
  o.until_step = 0;
  FrontierResult first = run_frontier(plain, unpinned, o, stop);
  if (!first.paused) {
    add_to_report(report, first);
    return std::nullopt;
  }
  auto keep = [&kept](const FrontierState& state) {
    if (kept.keep(state)) return;
    if (kept.spilled()) {
      throw OutOfRoom{
          "the unpinned sweep's generations went to spill files (its quarter of the memory "
          "budget was too small), and the pass keeps them in memory only"};
    }
    throw OutOfRoom{
        "the unpinned sweep's generations outgrew half the memory budget, even each column's "
        "first alone"};
  };
  o.until_step = -1;
  o.after_step = keep;
  keep(*first.paused);
  FrontierResult swept = run_frontier(plain, unpinned, o, stop, std::move(first.paused));
  // Its quarter of the budget was too small (without a spill folder): the tails get it all.
  if (!swept.complete && swept.stop_reason == StopReason::memory) {
    throw OutOfRoom{"the unpinned sweep outgrew its quarter of the memory budget"};
  }
  return swept;
}

// The pass back over the generations `kept` of the finished sweep `r`: the tours from every
// square into `report`, or where it stopped.
BackwardOutcome pass_back(const Sweep& plain, FrontierOptions again, const KeptGenerations& kept,
                          const FrontierResult& r, StopControl& stop, FrontierReport& report,
                          JobProgress& progress) {
  BackwardProgress pass;
  progress.backward_pass(&pass);
  const auto t0 = std::chrono::steady_clock::now();
  again.until_step = -1;  // for the columns the pass recomputes: whole
  again.after_step = nullptr;
  BackwardPassResult grid = tours_from_every_square(plain, again, kept, r.count, stop, &pass);
  progress.backward_pass(nullptr);
  // A pass stopped has expanded the generations it finished (its result says none).
  report.expanded += grid.tours_by_square.empty() ? pass.classes_done.load() : grid.expanded;
  report.steps_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++report.sweeps;
  if (grid.tours_by_square.empty()) {
    report.stop_reason = stop.reason();
    report.classes_left = static_cast<double>(pass.classes_total - pass.classes_done);
    // The pass makes no generation: the largest the job will hold is the sweep's.
    report.projected_peak_classes = static_cast<double>(report.peak_classes);
    return BackwardOutcome::stopped;
  }
  progress.sweep_done(true);
  ++report.sweeps_finished;
  report.tours_by_start = std::move(grid.tours_by_square);
  report.tours = r.count * 2;
  return BackwardOutcome::done;
}

}  // namespace

// The grid by one unpinned sweep, its generations kept, and the pass back over them
// (backward_pass.hpp). The sweep and its kept generations (all of them, or each column's
// first) take their shares of the memory budget (budget_shares.hpp); the pass's tables, and a
// column's generations recomputed, take the rest. When the generations outgrow their half the sweep
// is abandoned at once (its after_step throws), and when the pass would not fit beside them it is
// not started; either way the job takes pinned tails instead, having lost the sweep's work (at most
// what --total-only costs).
BackwardOutcome grid_by_pass(const Sweep& plain, const FrontierOptions& options, StopControl& stop,
                             FrontierReport& report, JobProgress& progress) {
  // The job says it goes by the pass (report.grid_by_backward_pass) until this gives it up.
  auto fall_back = [&] {
    progress.pass_follows(false);
    report.grid_by_backward_pass = false;
    return BackwardOutcome::fell_back;
  };
  FrontierOptions o = options;
  o.memory_budget = pass_sweep_share(options.memory_budget);
  o.label = "open tours, every path once, kept for the pass back";
  const int pass_from = pass_last_step(plain);
  KeptGenerations kept(kept_generations_share(options.memory_budget), plain.width(), pass_from);
  progress.pass_follows(true);
  std::optional<FrontierResult> swept;
  try {
    swept = kept_sweep(plain, o, kept, stop, report);
  } catch (const OutOfRoom& e) {
    spdlog::info("{}: the tours from each square come from pinned tails instead", e.what);
    return fall_back();
  }
  if (!swept) return BackwardOutcome::stopped;
  const FrontierResult& r = *swept;
  add_to_report(report, r);
  // The pass expands the sweep's generations from the middle column on (as the outlook
  // projects them), not a whole sweep's as add_to_report has it.
  if (!r.complete) {
    report.classes_left =
        r.outlook.classes_left + profile_classes(r.outlook, pass_from, plain.size());
  }
  report.peak_bytes = std::max(report.peak_bytes, r.peak_bytes + kept.bytes());
  StepBytes widest = r.widest_step;
  widest.kept = kept.bytes();
  if (widest.total() > report.widest_step.total()) report.widest_step = widest;
  if (!r.complete) return BackwardOutcome::stopped;
  progress.sweep_done(true);
  ++report.sweeps_finished;
  const std::uint64_t need = kept.bytes() +
                             pass_scratch_bytes(plain, kept, r.peak_classes, r.count) +
                             (kept.columns_only() ? o.memory_budget : 0);
  if (need > options.memory_budget) {
    spdlog::info(
        "the pass back over the unpinned sweep would need {} beside its generations, more than "
        "the memory budget: the tours from each square come from pinned tails instead",
        size_text(need));
    return fall_back();
  }
  if (kept.columns_only()) {
    spdlog::info(
        "the unpinned sweep's generations outgrew half the memory budget: each column's first "
        "is kept and the pass back recomputes the others (one more sweep's work)");
  }
  return pass_back(plain, o, kept, r, stop, report, progress);
}

}  // namespace frontier_detail

bool chooses_backward_pass(const FrontierRequest& request, const FrontierOptions& options,
                           const FrontierJournal* journal) {
  if (request.closed || request.start || request.total_only) return false;
  if (request.modulus != 0) return false;  // the pass divides counts: validate() refuses it
  Ranks* const ranks = several_ranks(options.ranks);
  const bool alone = ranks == nullptr;
  if (request.grid == GridMethod::backward_pass) {
    if (journal != nullptr || !alone) {
      throw UsageError(
          "the backward pass keeps its generations in memory only and runs in one process: "
          "not with a run directory or MPI ranks");
    }
    return true;
  }
  if (request.grid == GridMethod::pinned_tails || request.grid == GridMethod::end_pairs)
    return false;
  // The tails cost about one sweep's second half per class of start squares; the pass about
  // two sweeps and a half, but its lookups are random, into tables that grow about twice with
  // each square of width. Measured since the pass ends at the middle column
  // (docs/speed.md (half-turn.md)), it wins from about 3/4 of 2^(W-2) classes
  // on: 5x8 (12 classes) 1.11x, 6x7 (12) 1.19x, 6x10 (15) 1.18x, 6x12 (18) 1.41x; it ties
  // 5x7 and 6x8 (1.00x, 1.03x) and loses below: 6x6 (6 classes) 0.66x.
  const int width = Sweep(request.shape).width();
  const auto classes = static_cast<std::int64_t>(start_classes(request.shape).size());
  const bool pays = 4 * classes >= 3 * (std::int64_t{1} << std::max(0, width - 2));
  if (pays && (journal != nullptr || !alone)) {
    // Said once, by rank 0: the job runs slower than it would in one process without a run
    // directory (5x40: 14.8 s against 2.8 s), and nothing else tells why.
    if (ranks == nullptr || ranks->rank() == 0) {
      spdlog::info(
          "{} the tours from each square come from {} pinned sweeps (one per class of start "
          "squares), which {}; {} this board would take the faster pass back over one sweep, "
          "which keeps its work in memory in one process",
          journal != nullptr ? "with a run directory" : "over MPI ranks", classes,
          journal != nullptr ? "checkpoint" : "the ranks share",
          journal != nullptr ? "without one" : "in one process");
    }
    return false;
  }
  return pays;
}

}  // namespace knightstour
