#include "frontier/jobs/row_sweeps.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "frontier/sweep/shorter_boards.hpp"

namespace knightstour::frontier_detail {

namespace {

// The sweep of the board `length` (at least `rows`) columns long, across its rows: sweep
// vertex k is the same square of every length.
Sweep row_sweep(int rows, int length) { return Sweep(BoardShape{rows, length}); }

// The lengths a sweep `length` columns long counts: itself and the shorter ones whose
// squares still to come balance as its own do (all of them for an even number of rows, those
// of its parity for an odd one).
bool serves(int rows, int sweep_length, int n) {
  return rows % 2 == 0 || (sweep_length - n) % 2 == 0;
}

// The sweeps of one kind a row needs: the lengths below the rows' count each alone (their
// columns are the shorter side: a sweep across them holds far fewer classes than one across
// the rows, 8x5 open 1.4 G classes by its fifth column across 8), and from there one sweep
// across the rows for each parity it serves, counting those lengths on its way.
struct RowPlan {
  std::vector<int> alone;    // lengths counted by a sweep of their own
  std::vector<int> longest;  // the longest length of each sweep across the rows
};

RowPlan row_plan(int rows, int columns, bool closed) {
  RowPlan plan;
  // With one or two rows every square has fewer than two later neighbours: a sweep a length.
  const int first_swept = rows <= 2 ? columns + 1 : rows;
  for (int n = 1; n <= columns && n < first_swept; ++n) {
    // A closed board of an odd number of squares has no tour (the knight graph is bipartite).
    if (!(closed && rows * n % 2 == 1)) plan.alone.push_back(n);
  }
  if (columns < first_swept) return plan;
  if (rows % 2 == 0) {
    plan.longest = {columns};
  } else if (closed) {  // only even lengths have closed tours: the longest even one serves all
    const int even = columns % 2 == 0 ? columns : columns - 1;
    if (even >= first_swept) plan.longest = {even};
  } else {
    plan.longest = {columns};
    if (columns - 1 >= first_swept) plan.longest.push_back(columns - 1);
  }
  return plan;
}

// Runs the sweeps of one kind into `counts` (index n - 1 for length n; a length with no
// tour to count stays zero).
bool sweep_every_length(int rows, int columns, bool closed, const FrontierOptions& watched,
                        JobSweeps& sweeps, std::vector<BigCount>& counts) {
  const FrontierTarget target{closed, std::nullopt};
  const std::string what = closed ? "closed cycles" : "open tours, every path once";
  const RowPlan plan = row_plan(rows, columns, closed);
  for (const int n : plan.alone) {
    if (!sweeps.next(Sweep(BoardShape{rows, n}), target, what,
                     counts[static_cast<std::size_t>(n - 1)])) {
      return false;
    }
  }
  for (const int longest : plan.longest) {
    ShorterBoards shorter;
    std::vector<int> lengths;
    for (int n = rows; n <= longest; ++n) {
      if (!serves(rows, longest, n) || (closed && rows * n % 2 == 1)) continue;
      shorter.rules.push_back(make_step_rules(row_sweep(rows, n), target, watched.fold_mirror));
      lengths.push_back(n);
    }
    if (lengths.empty()) continue;
    ShorterCounts found;
    BigCount unused;  // the sweep's own board, longer than the row, is not counted
    if (!sweeps.next(row_sweep(rows, longest + kColumnsPastShorterBoards), target,
                     what + ", lengths " + std::to_string(rows) + " to " + std::to_string(longest),
                     unused, std::nullopt, &shorter, &found)) {
      return false;
    }
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      // A sweep that finished ran every step aside (a job of rows keeps no journal).
      counts[static_cast<std::size_t>(lengths[i] - 1)] = found.at(i).value();
    }
  }
  return true;
}

}  // namespace

int row_sweeps_planned(const FrontierRequest& request) {
  const int rows = request.shape.rows, columns = request.shape.cols;
  int planned = 0;
  for (const bool closed : {true, false}) {
    if (!closed && request.closed) continue;
    const RowPlan plan = row_plan(rows, columns, closed);
    planned += static_cast<int>(plan.alone.size() + plan.longest.size());
  }
  return planned;
}

bool count_every_length(const FrontierRequest& request, const FrontierOptions& watched,
                        FrontierReport& report, JobSweeps& sweeps) {
  const int rows = request.shape.rows, columns = request.shape.cols;
  std::vector<BigCount> cycles(static_cast<std::size_t>(columns));
  std::vector<BigCount> paths(static_cast<std::size_t>(columns));
  if (!sweep_every_length(rows, columns, true, watched, sweeps, cycles)) return false;
  if (!request.closed && !sweep_every_length(rows, columns, false, watched, sweeps, paths)) {
    return false;
  }
  report.by_length.clear();
  for (int n = 1; n <= columns; ++n) {
    LengthCounts c;
    c.length = n;
    const auto squares = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(n);
    c.cycles = cycles[static_cast<std::size_t>(n - 1)];
    c.closed_tours = c.cycles * (2 * squares);
    // One square is an open tour by itself; the DP counts paths by their edges.
    c.tours = request.closed ? c.closed_tours
              : squares == 1 ? BigCount(1)
                             : paths[static_cast<std::size_t>(n - 1)] * 2;
    report.by_length.push_back(c);
  }
  const LengthCounts& whole = report.by_length.back();
  report.tours = whole.tours;
  report.closed_tours = whole.closed_tours;
  report.cycles = whole.cycles;
  return true;
}

}  // namespace knightstour::frontier_detail
