#include "knightstour/frontier/frontier_job.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "grid_by_pass.hpp"
#include "job_progress.hpp"
#include "job_report.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/end_pair_units.hpp"

namespace knightstour {

using frontier_detail::absorb;
using frontier_detail::BackwardOutcome;
using frontier_detail::grid_by_pass;
using frontier_detail::JobProgress;

namespace {

// The images of (r, c) under the rectangle's symmetries (the square's eight, or four).
std::vector<std::int64_t> images(BoardShape shape, int r, int c) {
  const int R = shape.rows, C = shape.cols;
  std::vector<std::pair<int, int>> rc = {
      {r, c}, {R - 1 - r, c}, {r, C - 1 - c}, {R - 1 - r, C - 1 - c}};
  if (R == C) {
    for (int i = 0; i < 4; ++i)
      rc.push_back({rc[static_cast<std::size_t>(i)].second, rc[static_cast<std::size_t>(i)].first});
  }
  std::vector<std::int64_t> out;
  for (const auto& [rr, cc] : rc) out.push_back(std::int64_t{rr} * C + cc);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct SweepOutcome {
  FrontierResult result;
  bool ok() const { return result.complete; }
};

}  // namespace

std::vector<StartClass> start_classes(BoardShape shape) {
  const bool odd = shape.squares() % 2 == 1;
  std::map<std::int64_t, StartClass> by_rep;
  for (int r = 0; r < shape.rows; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      if (odd && (r + c) % 2 == 1) continue;  // the minority colour: no open tour ends there
      const auto orbit = images(shape, r, c);
      auto& cls = by_rep[orbit.front()];
      cls.representative = orbit.front();
      cls.squares.push_back(std::int64_t{r} * shape.cols + c);
    }
  }
  std::vector<StartClass> out;
  for (auto& [rep, cls] : by_rep) out.push_back(std::move(cls));
  return out;
}

Orientation best_orientation_for(BoardShape shape, std::int64_t a, std::int64_t b) {
  Orientation best{};
  std::pair<int, int> best_key{-1, -1};
  for (const auto& o : sweep_orientations(shape)) {
    const Sweep s(shape, o);
    const int va = s.vertex(a), vb = s.vertex(b);
    const std::pair<int, int> key{std::max(va, vb), std::min(va, vb)};
    if (best_key.first < 0 || key < best_key) {
      best_key = key;
      best = o;
    }
  }
  return best;
}

Orientation best_orientation_for(BoardShape shape, std::int64_t square) {
  return best_orientation_for(shape, square, square);
}

namespace {

// What an all-starts job that stopped still has to expand (the report's classes_left, which
// `estimate` projects from). A pinned tail from pin p expands about what
// the sweep's profile (its generations, measured, then projected) holds from step p on, and
// the prefix between two pins what it holds between them. absorb() alone takes every sweep
// not started to cost a whole one, counting each tail as long as the first: 8x7 (16 tails)
// was projected at 3.6e10 classes for its 4.9e9. The profile is projected from the prefix's
// generations followed by the stopped run's own: a tail stopped a few steps after its pin
// has too short a history of its own to see the growth.
class AllStartsOutlook {
 public:
  // `pins`: the pins' vertices in sweep order.
  AllStartsOutlook(const Sweep& s, std::vector<int> pins)
      : pins_(std::move(pins)), steps_(s.size()), width_(s.width()) {}

  // A stretch of the prefix reached its pin: its generations join the history.
  void prefix_paused(const FrontierResult& r) {
    const int start = r.outlook.next_step - static_cast<int>(r.classes.size());
    if (start != end_) history_.clear();
    history_.insert(history_.end(), r.classes.begin(), r.classes.end());
    end_ = r.outlook.next_step;
  }

  // Classes left when `stopped` (FrontierReport::stopped_outlook) is the prefix on its way to
  // pins[next] (in_tail false) or the tail of pins[next] (in_tail true).
  double classes_left(const SweepOutlook& stopped, std::size_t next, bool in_tail) const {
    SweepOutlook o = stopped;
    const int measured = stopped.next_step - stopped.first_step;
    if (end_ == stopped.first_step && !history_.empty() && measured > 0 &&
        static_cast<std::size_t>(measured) <= stopped.profile.size()) {
      std::vector<std::uint64_t> sizes = history_;
      for (int k = 0; k < measured; ++k)
        sizes.push_back(static_cast<std::uint64_t>(stopped.profile[static_cast<std::size_t>(k)]));
      o = sweep_outlook(sizes, stopped.next_step, steps_, width_, sizes.back());
    }
    auto expanded = [&](int from, int to) { return profile_classes(o, from, to); };
    // The run's own rest (the step under way is redone whole), the prefix from pins[next] to
    // the last pin, and the tails not started.
    double left = expanded(o.next_step, in_tail ? steps_ : pins_[next]);
    left += expanded(pins_[next], pins_.back());
    for (std::size_t i = in_tail ? next + 1 : next; i < pins_.size(); ++i)
      left += expanded(pins_[i], steps_);
    return left;
  }

 private:
  std::vector<int> pins_;
  int steps_;
  int width_;
  std::vector<std::uint64_t> history_;  // the prefix's generations after steps ... end_ - 1
  int end_ = -1;
};

// Open tours over all starts: one pinned sweep per class of start squares, sharing their
// common beginning. Before its pinned square a pinned sweep follows rules that do not
// depend on the pin (T may take one edge, not two), so a single "prefix" sweep runs those
// rules and, on reaching a class's pin, hands a copy of its classes to a sweep pinned
// there that finishes the count. Each class is pinned at the member the sweep reaches
// last: the prefix is one sweep in all, and what is left after a pin is short.
template <class Sweeper>
bool count_all_starts(BoardShape shape, const std::vector<StartClass>& classes,
                      const FrontierOptions& options, StopControl& stop, FrontierJournal* journal,
                      FrontierReport& report, Sweeper& sweep) {
  const Sweep s(shape);
  struct Pin {
    int vertex;
    const StartClass* cls;
  };
  std::vector<Pin> pins;
  for (const auto& cls : classes) {
    int last = -1;
    for (auto sq : cls.squares) last = std::max(last, s.vertex(sq));
    pins.push_back({last, &cls});
  }
  std::sort(pins.begin(), pins.end(),
            [](const Pin& a, const Pin& b) { return a.vertex < b.vertex; });
  std::vector<int> vertices;
  for (const auto& pin : pins) vertices.push_back(pin.vertex);
  AllStartsOutlook outlook(s, std::move(vertices));
  const int first_fork = report.sweeps;  // sweep index of the first pinned sweep
  const int prefix_index = first_fork + static_cast<int>(pins.size());
  const FrontierTarget prefix_target{false, s.size()};  // pinned past the end: never reached

  std::optional<FrontierState> prefix;
  bool prefix_looked_up = journal == nullptr;  // a saved prefix is read only when needed
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const Pin& pin = pins[i];
    const int index = first_fork + static_cast<int>(i);
    BigCount from;
    std::optional<FrontierState> start;
    // A pinned sweep finished or saved by an earlier run needs no prefix to start from.
    const bool needs_prefix =
        journal == nullptr || (!journal->finished(index) && !journal->has_saved(index));
    if (needs_prefix) {
      if (!prefix_looked_up) {
        prefix = journal->saved(prefix_index);
        prefix_looked_up = true;
      }
      // The prefix up to the pin (from a saved prefix when it has not passed the pin).
      if (prefix && prefix->next_step > pin.vertex) prefix.reset();
      FrontierOptions o = options;
      o.until_step = pin.vertex;
      o.label = "open tours, the part before the pins";
      if (journal != nullptr) {
        o.after_step = [&](const FrontierState& st) { journal->after_step(prefix_index, st); };
      }
      FrontierResult r = run_frontier(s, prefix_target, o, stop, std::move(prefix));
      absorb(report, r, false);
      if (!r.paused) {
        report.classes_left = outlook.classes_left(report.stopped_outlook, i, false);
        return false;
      }
      prefix = std::move(r.paused);
      start = *prefix;  // a copy: classes in memory are copied, spill files shared
      outlook.prefix_paused(r);
    }
    const int r = static_cast<int>(pin.cls->representative / shape.cols);
    const int c = static_cast<int>(pin.cls->representative % shape.cols);
    if (!sweep(s, FrontierTarget{false, pin.vertex},
               "open tours from r,c " + std::to_string(r) + "," + std::to_string(c), from,
               std::move(start))) {
      report.classes_left = outlook.classes_left(report.stopped_outlook, i, true);
      return false;
    }
    for (auto sq : pin.cls->squares) {
      report.tours_by_start[static_cast<std::size_t>(sq)] = from;
      report.tours += from;
    }
  }
  return true;
}

// Open tours over all starts by end pairs (end_pair_units.hpp): one sweep with both ends
// pinned per unit of this shard, oriented to reach its later pin soonest. Fills the grid,
// the start x end table and the closed tours (those whose ends are a knight's move apart);
// the cycles too when every unit is counted (2C closed tours start on each square).
template <class SweepNumber>
bool count_by_end_pairs(const FrontierRequest& request, FrontierReport& report,
                        SweepNumber& sweep_number) {
  const BoardShape shape = request.shape;
  auto name = [&](std::int64_t q) {
    return square_name(static_cast<int>(q / shape.cols), static_cast<int>(q % shape.cols));
  };
  const std::vector<EndPairUnit> units = end_pair_units(shape);
  std::map<int, BigCount> by_unit;
  for (const EndPairUnit& unit : units) {
    if (!unit_in_shard(unit.id, request.shard_index, request.shard_count)) continue;
    const Sweep s(shape, best_orientation_for(shape, unit.start, unit.end));
    const std::string what = "open tours " + name(unit.start) + "-" + name(unit.end) + " (unit " +
                             std::to_string(unit.id) + ")";
    if (!sweep_number(unit.id, s, FrontierTarget{false, s.vertex(unit.start), s.vertex(unit.end)},
                      what, by_unit[unit.id])) {
      return false;
    }
  }
  EndPairCounts counts = end_pair_counts(shape, units, by_unit);
  report.tours = counts.tours;
  report.closed_tours = counts.closed_tours;
  report.tours_by_start = std::move(counts.tours_by_start);
  report.closed_by_start = std::move(counts.closed_by_start);
  report.tours_by_start_end = std::move(counts.tours_by_start_end);
  if (counts.cycles) report.cycles = *counts.cycles;
  return true;
}

}  // namespace

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
  if (request.shard_count < 1 || request.shard_index < 0 ||
      request.shard_index >= request.shard_count) {
    throw UsageError("shard " + std::to_string(request.shard_index) + " of " +
                     std::to_string(request.shard_count) + " does not exist");
  }
  if (request.sharded() && !by_end_pairs) {
    throw UsageError("a frontier count is shared out by units of end pairs only");
  }
  if (by_end_pairs) end_pair_units(request.shape);  // too large a board is refused here
  chosen_bit_kernel();  // a bad KNIGHTSTOUR_BIT_KERNEL stops the run here, before any work
}

int planned_sweeps(const FrontierRequest& request, bool backward_pass) {
  if (request.closed || request.end) return 1;
  if (request.grid == GridMethod::end_pairs) {
    return static_cast<int>(end_pair_units(request.shape).size());
  }
  const int closed_sweep = request.open_sweeps_only ? 0 : 1;
  if (request.start || request.total_only) return closed_sweep + 1;
  if (backward_pass) return closed_sweep + 2;
  return closed_sweep + static_cast<int>(start_classes(request.shape).size());
}

FrontierReport count_by_frontier(const FrontierRequest& request, const FrontierOptions& options,
                                 StopControl& stop, FrontierJournal* journal) {
  validate(request);
  if (request.open_sweeps_only && journal != nullptr) {
    throw std::logic_error("open_sweeps_only runs without a journal");
  }
  const BoardShape shape = request.shape;
  const Sweep plain(shape);
  const std::int64_t squares = shape.squares();
  FrontierReport report;
  report.width = plain.width();
  const bool backward = grid_by_backward_pass(request, options, journal);
  report.grid_by_backward_pass = backward;  // the way it is going, also if the closed sweep stops
  report.sweeps_planned = planned_sweeps(request, backward);
  if (request.sharded()) {
    int mine = 0;  // sweep k is unit k; this shard runs its own
    for (int k = 0; k < report.sweeps_planned; ++k)
      mine += unit_in_shard(k, request.shard_index, request.shard_count) ? 1 : 0;
    report.sweeps_planned = mine;
  }
  const auto started = std::chrono::steady_clock::now();
  const std::string board = std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
  JobProgress progress(report.sweeps_planned, board);
  FrontierOptions watched = options;
  watched.watch = &progress.watch();
  IdleChunks idle;  // the sweeps run one after another and reuse each other's scratch
  if (watched.idle_chunks == nullptr) watched.idle_chunks = &idle;

  // Runs sweep number `index`; false when it stopped (the report then says why).
  auto sweep_number = [&](int index, const Sweep& s, const FrontierTarget& target,
                          const std::string& what, BigCount& out,
                          std::optional<FrontierState> start = std::nullopt) {
    if (journal != nullptr) {
      if (auto done = journal->finished(index)) {
        progress.sweep_done(false);
        ++report.sweeps;
        ++report.sweeps_resumed;
        ++report.sweeps_finished;
        out = *done;
        return true;
      }
    }
    FrontierOptions o = watched;
    o.label = what;
    if (journal != nullptr) {
      if (auto saved = journal->saved(index)) {
        start = std::move(saved);
        ++report.sweeps_resumed;
      }
      o.after_step = [&](const FrontierState& state) { journal->after_step(index, state); };
    }
    if (start) {
      // A copy from the shared prefix: its memory counts against what this sweep may use.
      const std::uint64_t held = memory_bytes_of(start->classes);
      o.memory_limit -= std::min(o.memory_limit, held);
    }
    const FrontierResult r = run_frontier(s, target, o, stop, std::move(start));
    absorb(report, r);
    if (r.complete) {
      progress.sweep_done(true);
      ++report.sweeps_finished;
      out = r.count;
      if (journal != nullptr) journal->finish(index, r.count);
    }
    return r.complete;
  };
  // Runs the next sweep.
  auto sweep = [&](const Sweep& s, const FrontierTarget& target, const std::string& what,
                   BigCount& out, std::optional<FrontierState> start = std::nullopt) {
    return sweep_number(report.sweeps, s, target, what, out, std::move(start));
  };

  std::vector<StartClass> classes;
  if (!request.closed && !request.start && !request.total_only) classes = start_classes(shape);
  ProgressMonitor monitor(
      options.progress_seconds, [&] { return progress.status(); },
      [&] { return progress.fraction(); });

  bool ok = false;
  if (request.end) {
    const Sweep s(shape, best_orientation_for(shape, *request.start, *request.end));
    ok = sweep(s, {false, s.vertex(*request.start), s.vertex(*request.end)},
               "open tours from the start to the end", report.tours);
    const KnightGeometry moves(shape);
    const bool neighbours = moves.adjacent(static_cast<std::uint32_t>(*request.start),
                                           static_cast<std::uint32_t>(*request.end));
    report.closed_tours = neighbours ? report.tours : BigCount{};
  } else if (request.grid == GridMethod::end_pairs) {
    ok = count_by_end_pairs(request, report, sweep_number);
  } else {
    ok = request.open_sweeps_only || sweep(plain, {true, {}}, "closed cycles", report.cycles);
    const BigCount closed_per_start = report.cycles * 2;
    if (ok && request.closed) {
      report.closed_tours =
          request.start ? closed_per_start : closed_per_start * static_cast<std::uint64_t>(squares);
      report.tours = report.closed_tours;
      if (!request.start) {
        report.tours_by_start.assign(static_cast<std::size_t>(squares), closed_per_start);
        report.closed_by_start = report.tours_by_start;
      }
    } else if (ok && request.start) {
      const Sweep s(shape, best_orientation_for(shape, *request.start));
      ok = sweep(s, {false, s.vertex(*request.start)}, "open tours from the start", report.tours);
      report.closed_tours = closed_per_start;
    } else if (ok && request.total_only) {
      BigCount paths;
      ok = sweep(plain, {false, std::nullopt}, "open tours, every path once", paths);
      report.tours = paths * 2;
      report.closed_tours = closed_per_start * static_cast<std::uint64_t>(squares);
    } else if (ok) {
      report.tours_by_start.assign(static_cast<std::size_t>(squares), BigCount{});
      report.closed_by_start.assign(static_cast<std::size_t>(squares), closed_per_start);
      BackwardOutcome outcome = BackwardOutcome::fell_back;
      if (backward) outcome = grid_by_pass(plain, watched, stop, report, progress);
      if (outcome == BackwardOutcome::fell_back) {
        // The closed sweep, an unpinned sweep that finished before the pass was given up, and
        // the tails.
        report.sweeps_planned =
            report.sweeps + planned_sweeps(request) - (request.open_sweeps_only ? 0 : 1);
        progress.replan(report.sweeps_planned);
        ok = count_all_starts(shape, classes, watched, stop, journal, report, sweep);
      } else {
        ok = outcome == BackwardOutcome::done;
      }
      report.closed_tours = closed_per_start * static_cast<std::uint64_t>(squares);
    }
  }
  if (ok && squares == 1 && !request.closed) {
    // One square is an open tour by itself; the DP counts paths by their edges, and it has none.
    report.tours = BigCount(1);
    if (!request.start && !request.total_only) report.tours_by_start = {BigCount(1)};
    if (!report.tours_by_start_end.empty()) report.tours_by_start_end = {BigCount(1)};
  }
  report.complete = ok;
  if (!ok) {
    report.tours = report.closed_tours = report.cycles = BigCount{};
    report.tours_by_start.clear();
    report.closed_by_start.clear();
    report.tours_by_start_end.clear();
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace knightstour
