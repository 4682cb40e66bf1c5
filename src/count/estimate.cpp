#include "knightstour/count/estimate.hpp"

#include <algorithm>
#include <filesystem>
#include <string>

#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/count/run_count.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/io/temp_directory.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/run/job_runner.hpp"

namespace knightstour {

namespace {

// Each shard's nodes at `per_shard` walks of its own: the whole job's walks shared out.
void estimate_shards(WalkEstimate& w, const Request& job, std::uint64_t walks, std::uint64_t seed) {
  const int shards = job.shard.count;
  const std::uint64_t per_shard =
      std::max<std::uint64_t>(1, walks / static_cast<std::uint64_t>(shards));
  for (int i = 0; i < shards; ++i) {
    Request r = job;
    r.shard.index = i;
    const PlanEstimate e = estimate_plan(resolve(r, w.threads), per_shard, seed, w.threads);
    if (e.interrupted) throw Interrupted("stopped while estimating shard " + std::to_string(i));
    w.shard_nodes.push_back(e.searched.nodes);
    w.shard_errors.push_back(e.searched.nodes_error());
  }
}

WalkEstimate estimate_by_walks(const EstimateRequest& asked, const MethodChoice& choice) {
  const CountRequest& count = asked.count;
  WalkEstimate w;
  w.choice = choice;
  w.threads = count.threads > 0 ? count.threads : default_threads();
  const Request sharded = enumerator_request(count, nullptr);
  // With cores per shard the first figures are of the whole job, then come the shards.
  w.job = sharded;
  if (asked.cores_per_shard > 0) w.job.shard = Shard{};
  const Plan plan = resolve(w.job, w.threads);
  w.split_depth = plan.split_depth();
  w.walks_asked = asked.walks;
  w.calibrate = asked.calibrate;
  w.e = estimate_plan(plan, asked.walks, asked.seed, w.threads);
  // Speed: count the real job for a moment on all threads (the caps make it stop).
  if (asked.calibrate > 0 && w.e.searched.nodes > 0 && !w.e.interrupted) {
    JobRequest probe;
    probe.request = plan.request();
    probe.threads = w.threads;
    probe.caps.time_limit = asked.calibrate;
    probe.largest_first = false;  // measure the kernel, not the start-up sampling
    const auto r = run_job(probe).report;
    if (r.seconds > 0) w.nodes_per_second = static_cast<double>(r.nodes) / r.seconds;
    if (r.complete()) w.whole = r;  // the whole count fit in the calibration
  }
  if (w.nodes_per_second > 0) w.seconds = w.e.searched.nodes / w.nodes_per_second;
  w.cores_per_shard = asked.cores_per_shard;
  if (asked.cores_per_shard > 0 && w.nodes_per_second > 0 && !w.e.interrupted) {
    estimate_shards(w, sharded, asked.walks, asked.seed);
  }
  return w;
}

// A calibration: the count stopped at its time limit or budget, and its projection (in two
// parts when it saw only an open job's closed sweep: the open sweeps calibrated again alone).
void calibrate(FrontierEstimate& f, const CountRequest& request) {
  f.r = run_count(request);
  f.p = project(f.r);
  f.interrupted = f.r.stop_reason == StopReason::signal;
  f.at_budget = f.r.stop_reason == StopReason::memory;
  if (!f.interrupted && saw_only_the_closed_sweep(f.r)) {
    CountRequest open_part = request;
    open_part.open_sweeps_only = true;
    const CountResult open = run_count(open_part);
    f.interrupted = open.stop_reason == StopReason::signal;
    f.at_budget = f.at_budget || open.stop_reason == StopReason::memory;
    f.p = project_in_two(f.r, open);
  }
}

FrontierEstimate estimate_by_frontier(const EstimateRequest& asked, const MethodChoice& choice);

// A row, by its boards (row_boards), each as a count of that board alone: the row's options,
// its prime as the modulus, the same calibration.
void estimate_row(FrontierEstimate& f, const EstimateRequest& asked, const CountRequest& request) {
  const FrontierRequest& q = f.plan.request;
  const RowBoards boards = row_boards(q);
  std::vector<int> lengths = boards.alone;
  if (boards.across) lengths.push_back(*boards.across);
  f.across = boards.across;
  for (const int n : lengths) {
    EstimateRequest part = asked;
    part.count = request;
    part.count.every_length = false;
    part.count.shape = BoardShape{q.shape.rows, n};
    part.count.residue_unit.reset();
    if (q.modulus != 0) part.count.modulus = q.modulus;
    f.parts.push_back(estimate_by_frontier(part, f.choice));
    if (f.parts.back().interrupted) {
      f.interrupted = true;
      return;
    }
  }
}

FrontierEstimate estimate_by_frontier(const EstimateRequest& asked, const MethodChoice& choice) {
  CountRequest request = asked.count;
  request.method = MethodAsked::frontier;
  FrontierEstimate f;
  f.choice = choice;
  f.calibrate = asked.calibrate;
  f.cores_per_shard = asked.cores_per_shard;
  f.shard_count = request.shard ? request.shard->count : 1;
  if (asked.cores_per_shard > 0) {
    // The first figures are of the whole job (its units spread over it), then come the shards.
    if (plan_frontier(request_with_defaults(request), choice).request.grid !=
        GridMethod::end_pairs) {
      throw UsageError(
          "$cores_per_shard sizes the shards of a frontier count by units of end pairs (open "
          "tours over all starts)");
    }
    request.shard.reset();
    request.grid = GridMethod::end_pairs;
  }
  // The plan a count with the same options would run, made before the calibration's own
  // settings below (no spilling, the time limit).
  f.plan = plan_frontier(request_with_defaults(request), choice);
  if (f.plan.request.modulus != 0) {
    f.residue_units = static_cast<int>(residue_primes(f.plan.request).size());
  }
  const std::filesystem::path spill_dir =
      f.plan.spill.to == SpillTo::folder ? f.plan.spill.parent : default_temp_parent();
  f.spill_dir = spill_dir.string();
  std::error_code error;
  const auto space = std::filesystem::space(spill_dir, error);
  if (!error) f.spill_free = static_cast<double>(space.available);
  // A row's sweeps are not one board's, which the outlook that projects a count was fitted
  // to: calibrated as one, 8x12 closed was projected at ~18 s from its short first sweeps.
  f.row = f.plan.request.every_length;
  if (f.row) {
    estimate_row(f, asked, request);
    return f;
  }
  request.caps.time_limit = asked.calibrate;
  request.run_dir.reset();
  // The calibration holds its classes within the budget and stops there instead of
  // spilling: an estimate writes nothing to disk. (Spilling, it wrote 8.6 GiB to $TMPDIR in
  // a minute of 8x8 closed, and a $TMPDIR too small for that ended it with an error.) The
  // steps it would have spilled are the ones the projection covers.
  f.budget_given = request.memory_budget.has_value();
  request.spill_dir = "none";
  calibrate(f, request);
  return f;
}

}  // namespace

double FrontierEstimate::seconds() const {
  if (interrupted) return -1;
  if (row) {
    double sum = 0;
    for (const FrontierEstimate& part : parts) {
      const double s = part.seconds();
      if (s < 0) return -1;
      sum += s;
    }
    return sum;
  }
  return r.complete ? r.seconds : p.seconds;
}

namespace {

// A figure of the largest generation: measured when the calibration finished the count, else
// projected; a row's, its largest board's.
template <class Measured, class Projected>
double largest(const FrontierEstimate& f, Measured measured, Projected projected) {
  if (f.row) {
    double most = 0;
    for (const FrontierEstimate& part : f.parts) {
      most = std::max(most, largest(part, measured, projected));
    }
    return most;
  }
  const auto& st = std::get<FrontierStatistics>(f.r.statistics);
  return f.r.complete ? static_cast<double>(st.*measured) : f.p.*projected;
}

}  // namespace

double FrontierEstimate::peak_classes() const {
  return largest(*this, &FrontierStatistics::peak_classes, &Projection::peak_classes);
}

double FrontierEstimate::peak_bytes() const {
  return largest(*this, &FrontierStatistics::peak_bytes, &Projection::peak_bytes);
}

std::vector<std::string> check(const EstimateRequest& request) {
  std::vector<std::string> refusals;
  if (request.walks == 0) refusals.emplace_back("$walks must be at least 1");
  if (request.cores_per_shard > 0) {
    if (!request.count.shard || request.count.shard->count < 2) {
      refusals.emplace_back(
          "$cores_per_shard estimates every shard: give $shard_count N (2 or more) and no "
          "$shard_index");
    }
    if (request.calibrate <= 0) {
      refusals.emplace_back("$cores_per_shard needs the speed: $calibrate above 0");
    }
  }
  return refusals;
}

MethodChoice estimate_method(const EstimateRequest& request) {
  const CountRequest& asked = request.count;
  const std::string& walks = request.walks_field;
  MethodChoice choice = choose_method(asked);
  if (!walks.empty() && choice.method == Method::frontier) {
    if (asked.method == MethodAsked::frontier) {
      throw UsageError("$" + walks +
                       " applies to the enumerator's estimate (leave out $method frontier)");
    }
    CountRequest as_dfs = asked;
    as_dfs.method = MethodAsked::dfs;
    choose_method(as_dfs);  // says why the enumerator cannot take it, if it cannot
    choice = {Method::dfs, "$" + walks + " needs the enumerator"};
  }
  if (asked.end && choice.method == Method::dfs && asked.method == MethodAsked::automatic &&
      walks.empty()) {
    choice = {Method::frontier, "$end is sized by a count of its one sweep"};
  }
  if (asked.end && choice.method == Method::dfs) {
    throw UsageError(
        "$end is sized by the frontier method's estimate (the enumerator's walks size every "
        "tour from the start); give $method frontier or leave out $end");
  }
  return choice;
}

Estimate estimate(const EstimateRequest& request) {
  refuse_first(check(request));
  const MethodChoice choice = estimate_method(request);
  if (choice.method == Method::dfs) return estimate_by_walks(request, choice);
  if (request.calibrate <= 0) {
    throw UsageError("the frontier method's estimate is a short count: $calibrate must be above 0");
  }
  return estimate_by_frontier(request, choice);
}

}  // namespace knightstour
