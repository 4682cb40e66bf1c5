#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "count_jobs.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/count/symmetry_classes.hpp"
#include "knightstour/run/job_runner.hpp"

namespace knightstour {

namespace {

std::vector<BigCount> big(const std::vector<std::uint64_t>& v) {
  std::vector<BigCount> out;
  out.reserve(v.size());
  for (auto x : v) out.emplace_back(x);
  return out;
}

// Closed cycles behind a closed count, when it covers whole cycles: every cycle through a
// fixed start appears twice (two directions), and over all starts 2 * squares times.
std::optional<BigCount> dfs_cycles(const Request& q, const RunReport& report) {
  if (!report.complete() || q.shard.count != 1) return std::nullopt;
  if (q.all_starts)
    return BigCount(report.closed / (2 * static_cast<std::uint64_t>(q.board.squares())));
  if (q.prefix.size() == 1) return BigCount(report.closed / 2);
  return std::nullopt;
}

}  // namespace

bool count_detail::closed_asked(const CountRequest& r, std::optional<bool> run_closed) {
  if (r.closed) return *r.closed;
  const bool names_job = r.shape || !r.prefix.empty() || r.all_starts.value_or(false);
  return run_closed && !names_job ? *run_closed : false;
}

Request dfs_request(const CountRequest& r, const RunManifest* resumed) {
  Request q = resumed ? resumed->request() : Request{};
  if (r.shape) q.board = Board(*r.shape);
  const int squares = q.board.squares();
  if (r.all_starts) q.all_starts = *r.all_starts;
  if (!r.prefix.empty()) {
    q.all_starts = false;
    q.prefix.clear();
    for (auto s : r.prefix) {
      if (s < 0 || s >= squares) throw UsageError("the start square is off the board");
      q.prefix.push_back(static_cast<std::uint8_t>(s));
    }
  }
  if (q.all_starts) q.prefix.clear();
  if (!q.all_starts) validate_path(q.board, q.prefix, "prefix");
  q.mode.closed = count_detail::closed_asked(
      r, resumed ? std::optional<bool>(resumed->closed_only) : std::nullopt);
  if (r.algorithm) q.mode.algorithm = *r.algorithm;
  q.symmetry = !r.no_symmetry && (!resumed || resumed->symmetry);
  if (r.split_depth) {
    if (*r.split_depth < 0 || *r.split_depth >= squares) {
      throw UsageError("$split_depth must be between 0 and " + std::to_string(squares - 1));
    }
    q.split_depth = *r.split_depth;
  }
  if (r.shard) {
    q.shard.index = r.shard->index;
    q.shard.count = r.shard->count;
  }
  check_shard(q.shard);
  return q;
}

Request enumerator_request(const CountRequest& r, const RunManifest* resumed) {
  if (!resumed && !r.all_starts.value_or(false) && r.prefix.empty()) {
    throw UsageError("give a start square with $start (e.g. $start a1), a $prefix, or $all_starts");
  }
  return dfs_request(r, resumed);
}

namespace count_detail {

CountResult count_dfs(const CountRequest& r, const MethodChoice& choice,
                      const RunManifest* resumed) {
  JobRequest job;
  job.command = Command::count;
  job.request = dfs_request(r, resumed);
  job.threads = r.threads;
  job.caps = r.caps;
  job.progress_seconds = r.progress_seconds;
  job.dir = r.run_dir;
  job.resume = resumed != nullptr;
  job.provenance = r.provenance;
  job.tour_symmetries = r.up_to_symmetry;
  const JobOutcome out = run_job(job);
  const RunReport& rep = out.report;
  const Request& q = out.request;

  CountResult res;
  res.shape = q.board.shape();
  res.all_starts = q.all_starts;
  res.prefix.assign(q.prefix.begin(), q.prefix.end());
  res.closed = q.mode.closed;
  res.method = Method::dfs;
  res.why = choice.why;
  res.complete = rep.complete();
  res.counts = res.complete ? CountResult::Counts::exact : CountResult::Counts::lower_bound;
  res.stop_reason = rep.stop_reason;
  res.tours = BigCount(rep.tours);
  res.closed_tours = BigCount(rep.closed);
  res.closed_cycles = dfs_cycles(q, rep);
  res.total_only = q.all_starts && r.total_only;
  if (q.all_starts && !res.total_only) {
    res.tours_by_start = big(rep.tours_by_start);
    res.closed_by_start = big(rep.closed_by_start);
  }
  res.tours_by_end = big(rep.tours_by_end);
  if (r.end) {
    // The tours from the start ending on one square: that square's share of the count.
    res.end = r.end;
    res.tours = res.tours_by_end.at(static_cast<std::size_t>(*r.end));
    const KnightGeometry moves(res.shape);
    const bool neighbours = moves.adjacent(static_cast<std::uint32_t>(res.prefix.front()),
                                           static_cast<std::uint32_t>(*r.end));
    res.closed_tours = neighbours ? res.tours : BigCount{};
    res.closed_cycles.reset();
    res.tours_by_end.clear();
  }
  res.classes_asked = r.up_to_symmetry;
  if (r.up_to_symmetry && res.complete) {
    const TourSymmetryCounts found{rep.tours, rep.tours_by_end, rep.self_reverse,
                                   rep.cycle_stabilizers};
    const std::optional<int> start =
        q.all_starts ? std::nullopt : std::optional<int>(q.prefix.front());
    res.classes = symmetry_classes(q.board, start, found, res.closed_cycles.has_value());
  }
  res.threads = rep.threads;
  res.seconds = rep.seconds;
  res.cpu_seconds = rep.cpu_seconds;
  if (!out.dir.empty()) res.run_dir = out.dir;
  DfsStatistics st;
  st.nodes = rep.nodes;
  st.split_depth = rep.split_depth;
  st.plan_prefixes = rep.plan_prefixes;
  st.shard_prefixes = rep.shard_prefixes;
  st.prefixes_done = rep.prefixes_done;
  st.prefixes_before = rep.prefixes_before;
  st.searches = rep.searches;
  st.tours_found = rep.tours_found;
  st.shard = q.shard;
  st.symmetry = q.symmetry;
  st.algorithm = q.mode.algorithm;
  res.statistics = st;
  return res;
}

}  // namespace count_detail
}  // namespace knightstour
