#include "frontier/jobs/row_sweeps.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "frontier/sweep/shorter_boards.hpp"
#include "knightstour/base/errors.hpp"

namespace knightstour::frontier_detail {

// The journal's unit of length n (frontier_job.hpp's row_sweeps_across).
int unit_of(int columns, bool closed, int n) { return (closed ? 0 : columns) + n - 1; }

namespace {

// The sweep of the board `length` (at least `rows`) columns long, across its rows: sweep
// vertex k is the same square of every length.
Sweep row_sweep(int rows, int length) { return Sweep(BoardShape{rows, length}); }

// The sweeps of one kind a row needs: the lengths below the rows' count each alone (their
// columns are the shorter side: a sweep across them holds far fewer classes than one across
// the rows, 8x5 open 1.4 G classes by its fifth column across 8), and from there one sweep
// across the rows, counting every length on its way. (With an odd number of rows, lengths of
// the two parities balance their colours differently: the sweep lets a class through when it
// balances as either does, shorter_boards.hpp.)
struct RowPlan {
  std::vector<int> alone;      // lengths counted by a sweep of their own
  std::optional<int> longest;  // the longest length of the sweep across the rows
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
  // A closed board of an odd number of squares has no tour: the longest even one is the last.
  const int longest = closed && rows % 2 == 1 && columns % 2 == 1 ? columns - 1 : columns;
  if (longest >= first_swept) plan.longest = longest;
  return plan;
}

// Runs the sweeps of one kind into `units` (by unit_of; a length with no tour to count is
// zero). `across` numbers the sweeps across the rows (their checkpoints), from
// planned_sweeps() on, over both kinds.
bool sweep_every_length(const FrontierRequest& request, bool closed, const FrontierOptions& watched,
                        JobSweeps& sweeps, int& across, std::map<int, BigCount>& units) {
  const int rows = request.shape.rows, columns = request.shape.cols;
  const FrontierTarget target{closed, std::nullopt};
  const std::string what = closed ? "closed cycles" : "open tours, every path once";
  const RowPlan plan = row_plan(rows, columns, closed);
  auto count_of = [&](int n) -> BigCount& { return units[unit_of(columns, closed, n)]; };
  for (int n = 1; n <= columns; ++n) {  // an odd closed board: no sweep, nothing to count
    // One or two rows: no knight's tour of any length (the knight graph is not connected; the
    // one square of 1x1 is the open tour row_of_units adds), so nothing to sweep either.
    if ((closed && rows * n % 2 == 1) || rows <= 2) {
      count_of(n) = BigCount{};
      if (!sweeps.finished(unit_of(columns, closed, n))) {
        sweeps.record(unit_of(columns, closed, n), {});
      }
    }
  }
  if (rows <= 2) return true;
  for (const int n : plan.alone) {
    if (!sweeps.run(unit_of(columns, closed, n), Sweep(BoardShape{rows, n}), target, what,
                    count_of(n))) {
      return false;
    }
  }
  if (plan.longest) {
    const int longest = *plan.longest;
    const int number = planned_sweeps(request) + across++;
    ShorterBoards shorter;
    std::vector<int> lengths;
    bool all_finished = true;
    for (int n = rows; n <= longest; ++n) {
      if (closed && rows * n % 2 == 1) continue;
      shorter.rules.push_back(make_step_rules(row_sweep(rows, n), target, watched.fold_mirror));
      lengths.push_back(n);
      const auto done = sweeps.finished(unit_of(columns, closed, n));
      if (done) count_of(n) = *done;
      all_finished = all_finished && done.has_value();
    }
    if (all_finished) {
      sweeps.skip_finished();
      return true;
    }
    shorter.counted = [&](std::size_t i, const BigCount& count) {
      sweeps.record(unit_of(columns, closed, lengths[i]), count);
    };
    ShorterCounts found;
    BigCount unused;  // the longest board is counted aside, as the others are
    if (!sweeps.run(
            number, row_sweep(rows, longest), target,
            what + (longest == rows ? ", length " : ", lengths " + std::to_string(rows) + " to ") +
                std::to_string(longest),
            unused, std::nullopt, &shorter, &found)) {
      return false;
    }
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      // Counted now, or (a sweep resumed past its last step) by the session before.
      const int n = lengths[i];
      if (i < found.size() && found[i]) {
        count_of(n) = *found[i];
      } else if (const auto done = sweeps.finished(unit_of(columns, closed, n))) {
        count_of(n) = *done;
      } else {
        throw std::logic_error("the sweep across the rows passed length " + std::to_string(n) +
                               " with no count for it, now or journaled");
      }
    }
  }
  return true;
}

}  // namespace

int row_sweeps_across(const FrontierRequest& request) {
  int across = 0;
  for (const bool closed : {true, false}) {
    if (!closed && request.closed) continue;
    across += row_plan(request.shape.rows, request.shape.cols, closed).longest ? 1 : 0;
  }
  return across;
}

int row_sweeps_planned(const FrontierRequest& request) {
  const int rows = request.shape.rows, columns = request.shape.cols;
  int planned = 0;
  for (const bool closed : {true, false}) {
    if (!closed && request.closed) continue;
    const RowPlan plan = row_plan(rows, columns, closed);
    planned += static_cast<int>(plan.alone.size()) + (plan.longest ? 1 : 0);
  }
  return planned;
}

bool count_every_length(const FrontierRequest& request, const FrontierOptions& watched,
                        FrontierReport& report, JobSweeps& sweeps) {
  std::map<int, BigCount> units;
  int across = 0;
  if (!sweep_every_length(request, true, watched, sweeps, across, units)) return false;
  if (!request.closed && !sweep_every_length(request, false, watched, sweeps, across, units)) {
    return false;
  }
  report.by_length = row_of_units(request, units);
  const LengthCounts& whole = report.by_length.back();
  report.tours = whole.tours;
  report.closed_tours = whole.closed_tours;
  report.cycles = whole.cycles;
  return true;
}

}  // namespace knightstour::frontier_detail

namespace knightstour {

RowBoards row_boards(const FrontierRequest& request) {
  const frontier_detail::RowPlan plan =
      frontier_detail::row_plan(request.shape.rows, request.shape.cols, request.closed);
  RowBoards boards;
  if (request.shape.rows <= 2) return boards;
  for (const int n : plan.alone) {
    if (n > 2) boards.alone.push_back(n);
  }
  boards.across = plan.longest;
  return boards;
}

std::vector<LengthCounts> row_of_units(const FrontierRequest& request,
                                       const std::map<int, BigCount>& units) {
  const int rows = request.shape.rows, columns = request.shape.cols;
  auto unit = [&](bool closed, int n) {
    const auto it = units.find(frontier_detail::unit_of(columns, closed, n));
    if (it == units.end()) {
      throw FormatError("the row " + std::to_string(rows) + "xn has no count of its " +
                        (closed ? "closed cycles" : "paths") + " of length " + std::to_string(n));
    }
    return it->second;
  };
  std::vector<LengthCounts> row;
  for (int n = 1; n <= columns; ++n) {
    LengthCounts c;
    c.length = n;
    const auto squares = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(n);
    c.cycles = unit(true, n);
    c.closed_tours = c.cycles * (2 * squares);
    // One square is an open tour by itself; the DP counts paths by their edges.
    c.tours = request.closed ? c.closed_tours : squares == 1 ? BigCount(1) : unit(false, n) * 2;
    row.push_back(c);
  }
  return row;
}

}  // namespace knightstour
