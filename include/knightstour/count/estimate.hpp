#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "knightstour/count/count_result.hpp"
#include "knightstour/count/frontier_plan.hpp"
#include "knightstour/count/frontier_projection.hpp"
#include "knightstour/count/method_choice.hpp"
#include "knightstour/exec/driver.hpp"
#include "knightstour/plan/plan_estimate.hpp"

namespace knightstour {

// What `estimate` is asked: a count to size, and how to size it.
struct EstimateRequest {
  CountRequest count;
  // The enumerator's Knuth walks in all, and their seed. `walks_field` names the field given
  // ("walks" or "seed"), which asks for the enumerator's estimate; empty when neither was.
  std::uint64_t walks = 1'000'000;
  std::uint64_t seed = 1;
  std::string walks_field;
  // Seconds of real counting to measure the speed: the enumerator's probe, or the frontier
  // method's calibration (a short count, then projected). 0: no time estimated.
  double calibrate = 2;
  // With a shard count (no shard index): each shard sized at this many cores; 0: not asked.
  int cores_per_shard = 0;
};

// The request's refusals, naming its fields ("$walks must be at least 1"), in the order
// checked; empty when it can be estimated. The count's own rules are check(CountRequest)'s.
std::vector<std::string> check(const EstimateRequest& request);

// The enumerator's estimate: Knuth walks over the plan's prefixes, and the speed a short real
// count measured.
struct WalkEstimate {
  MethodChoice choice;
  Request job;  // the enumerator's, whole (not one shard) when shards are sized
  int split_depth = 0;
  int threads = 0;
  PlanEstimate e;
  std::uint64_t walks_asked = 0;
  double calibrate = 0;
  double nodes_per_second = 0;     // 0: not measured
  double seconds = -1;             // projected for the count; < 0: not projected
  std::optional<RunReport> whole;  // the count itself, when it fit in the calibration
  // With cores per shard: each shard's nodes and their standard errors, from walks of its
  // own (empty when the speed could not be measured).
  int cores_per_shard = 0;
  std::vector<double> shard_nodes;
  std::vector<double> shard_errors;
};

// The frontier method's estimate: a calibration (the count itself for `calibrate` seconds,
// stopped by its time limit or its memory budget, writing nothing to disk) and what it
// projects. A row (every length) is sized by the boards its sweeps cost about as much as
// (row_boards: the lengths counted alone, then the longest, for the sweep across the rows),
// each estimated alone as a count of that board (modulo the row's prime, if it has one).
struct FrontierEstimate {
  MethodChoice choice;
  FrontierPlan plan;                    // the plan a count with the same options would run
  bool row = false;                     // every length: sized by `parts`, no calibration of its own
  std::vector<FrontierEstimate> parts;  // a row's boards, in the order its sweeps run
  std::optional<int> across;            // a row's sweep across the rows: the last part's length
  CountResult r;                        // the calibration (not made for a row)
  Projection p;
  double calibrate = 0;
  bool interrupted = false;   // by a signal: nothing projected
  bool at_budget = false;     // the calibration reached the memory budget and stopped there
  bool budget_given = false;  // the memory budget was asked, not the default
  // Where the count's spill files would go, and the bytes free there now (-1: unknown).
  std::string spill_dir;
  double spill_free = -1;
  int residue_units = 0;  // a residue unit's job: its units; 0 otherwise
  int shard_count = 1;    // with cores per shard: the shards the job's units are dealt to
  int cores_per_shard = 0;

  // The whole count's wall time, classes at the peak and bytes of its widest step: measured if
  // the calibration finished it, else projected; a row's, its parts' (the sum, the largest).
  // seconds() < 0: not projected (interrupted, or no class expanded).
  double seconds() const;
  double peak_classes() const;
  double peak_bytes() const;
};

using Estimate = std::variant<WalkEstimate, FrontierEstimate>;

// Sizes the count: the method a count with the same options would use (the enumerator when
// walks are asked for, the frontier method for an end square), then its estimate. A request
// check() refuses, or one its method cannot take, is a UsageError; a stop signal ends it with
// what it has (stopped/interrupted), or as Interrupted when nothing was measured.
Estimate estimate(const EstimateRequest& request);

// The method estimate() sizes the request by, and why.
MethodChoice estimate_method(const EstimateRequest& request);

}  // namespace knightstour
