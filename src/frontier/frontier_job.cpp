#include "knightstour/frontier/frontier_job.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>

#include "knightstour/base/errors.hpp"

namespace knightstour {

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

void absorb(FrontierReport& report, const FrontierResult& r) {
  ++report.sweeps;
  report.peak_classes = std::max(report.peak_classes, r.peak_classes);
  report.peak_bytes = std::max(report.peak_bytes, r.peak_bytes);
  report.expanded += r.expanded;
  report.limbs = std::max(report.limbs, r.limbs);
  if (!r.complete && report.stop_reason == StopReason::none) report.stop_reason = r.stop_reason;
}

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

Orientation best_orientation_for(BoardShape shape, std::int64_t square) {
  Orientation best{};
  int best_vertex = -1;
  for (const auto& o : sweep_orientations(shape)) {
    const int v = Sweep(shape, o).vertex(square);
    if (best_vertex < 0 || v < best_vertex) {
      best_vertex = v;
      best = o;
    }
  }
  return best;
}

FrontierReport count_by_frontier(const FrontierRequest& request, const FrontierOptions& options,
                                 StopControl& stop) {
  const BoardShape shape = request.shape;
  const Sweep plain(shape);  // validates the width
  const std::int64_t squares = shape.squares();
  if (request.start && (*request.start < 0 || *request.start >= squares)) {
    throw UsageError("the start square is off the board");
  }
  FrontierReport report;
  report.width = plain.width();
  const auto started = std::chrono::steady_clock::now();
  const std::string board = std::to_string(shape.rows) + "x" + std::to_string(shape.cols);

  // Runs one sweep; false when it stopped (the report then says why).
  auto sweep = [&](const Sweep& s, const FrontierTarget& target, const std::string& what,
                   BigCount& out) {
    FrontierOptions o = options;
    o.label = board + " " + what + " (sweep " + std::to_string(report.sweeps + 1) + " of " +
              std::to_string(report.sweeps_planned) + ")";
    const FrontierResult r = run_frontier(s, target, o, stop);
    absorb(report, r);
    if (r.complete) out = r.count;
    return r.complete;
  };

  std::vector<StartClass> classes;
  if (!request.closed && !request.start) classes = start_classes(shape);
  report.sweeps_planned =
      1 + (request.closed ? 0 : (request.start ? 1 : static_cast<int>(classes.size())));

  bool ok = sweep(plain, {true, {}}, "closed cycles", report.cycles);
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
  } else if (ok) {
    report.tours_by_start.assign(static_cast<std::size_t>(squares), BigCount{});
    report.closed_by_start.assign(static_cast<std::size_t>(squares), closed_per_start);
    for (const auto& cls : classes) {
      const Sweep s(shape, best_orientation_for(shape, cls.representative));
      BigCount from;
      const int r = static_cast<int>(cls.representative / shape.cols);
      const int c = static_cast<int>(cls.representative % shape.cols);
      ok = sweep(s, {false, s.vertex(cls.representative)},
                 "open tours from r,c " + std::to_string(r) + "," + std::to_string(c), from);
      if (!ok) break;
      for (auto sq : cls.squares) {
        report.tours_by_start[static_cast<std::size_t>(sq)] = from;
        report.tours += from;
      }
    }
    report.closed_tours = closed_per_start * static_cast<std::uint64_t>(squares);
  }
  if (ok && squares == 1 && !request.closed) {
    // One square is an open tour by itself; the DP counts paths by their edges, and it has none.
    report.tours = BigCount(1);
    if (!request.start) report.tours_by_start = {BigCount(1)};
  }
  report.complete = ok;
  if (!ok) {
    report.tours = report.closed_tours = report.cycles = BigCount{};
    report.tours_by_start.clear();
    report.closed_by_start.clear();
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace knightstour
