#pragma once

#include <cstdint>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/exec/ledger.hpp"
#include "knightstour/exec/sink.hpp"
#include "knightstour/plan/plan.hpp"

namespace knightstour {

// How a plan runs: none of this changes what is counted.
struct ExecOptions {
  int threads = 1;
  double progress_seconds = 0;  // status line period, 0 = off
  // Sample the items' sizes first and start the largest (up to a second on a long job;
  // better balance and a progress ETA). Off, the time goes to the search alone.
  bool largest_first = true;
};

// What a run reports, whatever its sink.
struct RunReport {
  int threads = 0;
  int split_depth = 0;
  std::size_t plan_prefixes = 0;    // prefixes in the whole plan
  std::size_t shard_prefixes = 0;   // prefixes this shard covers
  std::size_t prefixes_done = 0;    // of those, finished (earlier sessions included)
  std::size_t prefixes_before = 0;  // finished by earlier sessions
  std::size_t searches = 0;  // prefixes searched this time (the rest: mirror images or done before)
  std::uint64_t tours = 0;   // over finished prefixes: a lower bound unless complete
  std::uint64_t closed = 0;  // of those, ending a knight move from their start
  std::uint64_t nodes = 0;   // nodes searched this time, finished prefixes or not
  // Tours found this time, finished prefixes or not, mirror images included, as the stop
  // control saw them (what --max-tours compares with); at least --max-tours when it stopped
  // the run.
  std::uint64_t tours_found = 0;
  std::uint64_t journaled_nodes = 0;  // nodes of the finished prefixes (earlier sessions too)
  double seconds = 0;
  double cpu_seconds = 0;  // CPU time of the process during the run, all threads
  StopReason stop_reason = StopReason::none;
  // By square index, over finished prefixes (by last square: zeros unless the sink counts
  // by last square).
  std::vector<std::uint64_t> tours_by_start;
  std::vector<std::uint64_t> closed_by_start;
  std::vector<std::uint64_t> tours_by_end;
  // Over finished prefixes, when the sink looks at the tours' symmetries (else 0): see
  // PrefixResult.
  std::uint64_t self_reverse = 0;
  std::uint64_t cycle_stabilizers = 0;

  bool complete() const { return prefixes_done == shard_prefixes; }
};

// Runs this shard's work items of a plan on options.threads threads (oneTBB, largest first,
// work stealing): every prefix not done before is searched or derived from a mirror image,
// its result recorded in `ledger`. Totals are identical for any thread count and split
// depth; a stopped run reports the prefixes that finished, which are lower bounds. An
// exception from the sink or the ledger stops the run, lets the sink record what is safe,
// and is rethrown.
RunReport run_plan(const Plan& plan, Sink& sink, Ledger& ledger, const ExecOptions& options,
                   StopControl& stop);

}  // namespace knightstour
