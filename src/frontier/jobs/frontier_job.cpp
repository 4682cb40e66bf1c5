#include "knightstour/frontier/frontier_job.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "frontier/grid/grid.hpp"
#include "frontier/grid/grid_by_pass.hpp"
#include "frontier/grid/start_squares.hpp"
#include "frontier/jobs/count_bound.hpp"
#include "frontier/jobs/row_sweeps.hpp"
#include "frontier/progress/job_progress.hpp"
#include "frontier/sweep/job_sweeps.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/frontier_request.hpp"

namespace knightstour {

using frontier_detail::JobProgress;

namespace {

// The board whose count bound covers every count the job's sweeps hold. Before its last
// columns a row's sweep holds classes that only a longer board could end: the bound is taken
// on a board 4 columns longer, whose own sweep keeps every class this one keeps, with counts
// as large (its rules are no stricter: its end is out of sight).
BoardShape bounded_shape(const FrontierRequest& request) {
  if (!request.every_length) return request.shape;
  return {request.shape.rows, request.shape.cols + 4};
}

// Bits that every count of the job fits in (count_bound.hpp): its sweeps' classes and sums.
double count_bits(const FrontierRequest& request) {
  const BoardShape shape = bounded_shape(request);
  const double cycles = frontier_detail::count_bits_bound(shape, false);
  return request.closed ? cycles : std::max(cycles, frontier_detail::count_bits_bound(shape, true));
}

}  // namespace

std::vector<std::uint64_t> residue_primes(const FrontierRequest& request) {
  // Each prime passes 2^61.99: k of them multiply past 2^(61.99 k), which covers the bound.
  const auto needed = static_cast<int>(std::max(1.0, std::ceil(count_bits(request) / 61.99)));
  std::vector<std::uint64_t> primes;
  for (std::uint64_t n = kModulusBelow - 1; static_cast<int>(primes.size()) < needed + 1; n -= 2) {
    if (is_prime(n)) primes.push_back(n);
  }
  return primes;
}

void validate(const FrontierRequest& request) {
  const Sweep plain(request.shape);  // validates the width
  if (request.start && (*request.start < 0 || *request.start >= request.shape.squares())) {
    throw UsageError("the start square is off the board");
  }
  if (request.total_only && (request.start || request.closed)) {
    throw UsageError("a total-only count is of open tours over all starts");
  }
  if (request.end) {
    if (!request.start || request.closed || *request.end == *request.start) {
      throw UsageError("an end square needs a start square, another one, and open tours");
    }
    if (*request.end < 0 || *request.end >= request.shape.squares()) {
      throw UsageError("the end square is off the board");
    }
  }
  if (request.open_sweeps_only && request.closed) {
    throw UsageError("a closed count has no open sweeps to run alone");
  }
  const bool by_end_pairs = request.grid == GridMethod::end_pairs;
  if (by_end_pairs && (request.closed || request.start || request.total_only)) {
    throw UsageError("units by end pairs count open tours over all starts, with their grid");
  }
  if (by_end_pairs && request.open_sweeps_only) {
    throw UsageError("units by end pairs run no closed sweep to leave out");
  }
  if (request.every_length) {
    if (request.start || request.end || (!request.closed && !request.total_only) ||
        request.open_sweeps_only || by_end_pairs) {
      throw UsageError(
          "$every_length counts closed tours, or open tours over all starts with "
          "$total_only, of every length of the board");
    }
    if (request.shape.rows > kMaxFrontierWidth) {
      throw UsageError("$every_length sweeps across the board's " +
                       std::to_string(request.shape.rows) + " rows: at most " +
                       std::to_string(kMaxFrontierWidth) + " (the lengths are its columns)");
    }
    const BoardShape swept = bounded_shape(request);
    // One or two rows hold no tour: every count is 0 (row_sweeps.cpp), whatever the bound.
    const bool no_tours = request.shape.rows <= 2;
    const double bits = count_bits(request);
    if (bits > 64.0 * kMaxLimbs && !no_tours && request.modulus == 0) {
      throw UsageError(
          "$every_length " + std::to_string(request.shape.rows) + "x" +
          std::to_string(request.shape.cols) + ": its counts may need up to " +
          std::to_string(static_cast<int>(std::ceil(bits))) + " bits (a bound on the tours of " +
          std::to_string(swept.rows) + "x" + std::to_string(swept.cols) +
          ", 4 columns longer: it bounds every count the sweep holds), past the " +
          std::to_string(64 * kMaxLimbs) + " bits a count holds here: count a shorter row");
    }
  }
  if (request.modulus != 0) {
    if (!is_modulus(request.modulus)) {
      throw UsageError("the modulus " + std::to_string(request.modulus) +
                       " is not an odd prime below 2^62 (4611686018427387904)");
    }
    if (request.grid == GridMethod::backward_pass || by_end_pairs) {
      throw UsageError(
          "a count modulo a prime takes the tours from each square from pinned tails: the "
          "backward pass and units of end pairs divide counts");
    }
  }
  check_shard(request.shard);
  if (request.sharded() && !by_end_pairs) {
    throw UsageError("a frontier count is shared out by units of end pairs only");
  }
  if (by_end_pairs) end_pair_units(request.shape);  // too large a board is refused here
  chosen_bit_kernel();  // a bad KNIGHTSTOUR_BIT_KERNEL stops the run here, before any work
}

int planned_sweeps(const FrontierRequest& request, bool backward_pass) {
  if (request.every_length) return request.shape.cols * (request.closed ? 1 : 2);
  if (request.closed || request.end) return 1;
  if (request.grid == GridMethod::end_pairs) {
    return static_cast<int>(end_pair_units(request.shape).size());
  }
  const int closed_sweep = request.open_sweeps_only ? 0 : 1;
  if (request.start || request.total_only) return closed_sweep + 1;
  if (backward_pass) return closed_sweep + 2;
  return closed_sweep + static_cast<int>(start_classes(request.shape).size());
}

int row_sweeps_across(const FrontierRequest& request) {
  return request.every_length ? frontier_detail::row_sweeps_across(request) : 0;
}

namespace {

using frontier_detail::JobSweeps;

// The open tours from the start to the end: one sweep with both ends pinned.
bool count_between(const FrontierRequest& request, FrontierReport& report, JobSweeps& sweeps) {
  const BoardShape shape = request.shape;
  const Sweep s(shape, best_orientation_for(shape, *request.start, *request.end));
  const bool ok = sweeps.next(s, {false, s.vertex(*request.start), s.vertex(*request.end)},
                              "open tours from the start to the end", report.tours);
  const KnightGeometry moves(shape);
  const bool neighbours = moves.adjacent(static_cast<std::uint32_t>(*request.start),
                                         static_cast<std::uint32_t>(*request.end));
  report.closed_tours = neighbours ? report.tours : BigCount{};
  return ok;
}

// Every other job but units of end pairs: the closed sweep first (the cycles give the
// closed tours), then what the job asks of the open tours.
bool count_after_the_closed_sweep(const FrontierRequest& request, bool backward,
                                  FrontierReport& report, JobSweeps& sweeps) {
  const BoardShape shape = request.shape;
  const Sweep plain(shape);
  const auto squares = static_cast<std::uint64_t>(shape.squares());
  bool ok =
      request.open_sweeps_only || sweeps.next(plain, {true, {}}, "closed cycles", report.cycles);
  const BigCount closed_per_start = report.cycles * 2;
  if (!ok) return false;
  if (request.closed) {
    report.closed_tours = request.start ? closed_per_start : closed_per_start * squares;
    report.tours = report.closed_tours;
    if (!request.start) {
      report.tours_by_start.assign(squares, closed_per_start);
      report.closed_by_start = report.tours_by_start;
    }
    return true;
  }
  if (request.start) {
    const Sweep s(shape, best_orientation_for(shape, *request.start));
    report.closed_tours = closed_per_start;
    return sweeps.next(s, {false, s.vertex(*request.start)}, "open tours from the start",
                       report.tours);
  }
  report.closed_tours = closed_per_start * squares;
  if (request.total_only) {
    BigCount paths;
    ok = sweeps.next(plain, {false, std::nullopt}, "open tours, every path once", paths);
    report.tours = paths * 2;
    return ok;
  }
  return frontier_detail::count_grid(request, backward, sweeps);
}

// Every count of the report modulo p: the sums of classes' counts congruent to them.
void reduce_counts(FrontierReport& r, std::uint64_t p) {
  auto reduce = [p](BigCount& c) { c = residue(c, p); };
  for (BigCount* c : {&r.tours, &r.closed_tours, &r.cycles}) reduce(*c);
  for (auto* v : {&r.tours_by_start, &r.closed_by_start, &r.tours_by_start_end}) {
    for (BigCount& c : *v) reduce(c);
  }
  for (LengthCounts& l : r.by_length) {
    for (BigCount* c : {&l.tours, &l.closed_tours, &l.cycles}) reduce(*c);
  }
  r.modulus = p;
}

}  // namespace

FrontierReport count_by_frontier(const FrontierRequest& request, const FrontierOptions& options,
                                 StopControl& stop, FrontierJournal* journal) {
  validate(request);
  if (request.open_sweeps_only && journal != nullptr) {
    throw std::logic_error("open_sweeps_only runs without a journal");
  }
  const BoardShape shape = request.shape;
  FrontierReport report;
  report.width = request.every_length ? shape.rows : Sweep(shape).width();
  if (request.every_length && several_ranks(options.ranks) != nullptr) {
    throw UsageError("$every_length runs in one process for now, not over MPI ranks");
  }
  if (request.modulus != 0 && several_ranks(options.ranks) != nullptr) {
    throw UsageError("a count modulo a prime runs in one process for now, not over MPI ranks");
  }
  std::optional<ModularCounts> modular;
  if (request.modulus != 0) modular.emplace(request.modulus);
  const bool backward = chooses_backward_pass(request, options, journal);
  report.grid_by_backward_pass = backward;  // the way it is going, also if the closed sweep stops
  // A row plans its sweeps, not the lengths its journal keeps.
  report.sweeps_planned = request.every_length ? frontier_detail::row_sweeps_planned(request)
                                               : planned_sweeps(request, backward);
  report.sweeps_alike = request.grid == GridMethod::end_pairs;
  if (request.sharded()) {  // sweep k is unit k; this shard runs its own
    report.sweeps_planned = units_in_shard(report.sweeps_planned, request.shard);
  }
  const auto started = std::chrono::steady_clock::now();
  const std::string board = std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
  JobProgress progress(report.sweeps_planned, board);
  FrontierOptions watched = options;
  watched.watch = &progress.watch();
  IdleChunks idle;  // the sweeps run one after another and reuse each other's scratch
  if (watched.idle_chunks == nullptr) watched.idle_chunks = &idle;
  JobSweeps sweeps(watched, stop, journal, report, progress);
  ProgressMonitor monitor(
      options.progress_seconds, [&] { return progress.status(); },
      [&] { return progress.fraction(); });

  bool ok = false;
  if (request.every_length) {
    ok = frontier_detail::count_every_length(request, watched, report, sweeps);
  } else if (request.end) {
    ok = count_between(request, report, sweeps);
  } else if (request.grid == GridMethod::end_pairs) {
    ok = frontier_detail::count_grid(request, backward, sweeps);
  } else {
    ok = count_after_the_closed_sweep(request, backward, report, sweeps);
  }
  if (ok && shape.squares() == 1 && !request.closed && request.shard.index == 0) {
    // One square is an open tour by itself; the DP counts paths by their edges, and it has none.
    // Of several shards, shard 0 holds it (end_pair_counts).
    report.tours = BigCount(1);
    if (!request.start && !request.total_only) report.tours_by_start = {BigCount(1)};
  }
  report.complete = ok;
  if (ok && request.modulus != 0) reduce_counts(report, request.modulus);
  if (!ok) {
    report.tours = report.closed_tours = report.cycles = BigCount{};
    report.tours_by_start.clear();
    report.closed_by_start.clear();
    report.tours_by_start_end.clear();
    report.by_length.clear();
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace knightstour
