#include "knightstour/count/run_standing.hpp"

#include <set>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/end_pair_units.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/frontier_run/frontier_run_files.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

void take_timings(const RunManifest& m, RunStanding& s) {
  s.cpu_seconds = m.cpu_seconds;
  s.seconds = m.seconds;
  s.sessions = m.sessions;
  s.status = m.status;
  s.stop_reason = m.stop_reason;
  s.merged = !m.inputs.empty();
}

// The enumerator's run: prefixes journaled (committed lines) of the shard's.
void read_dfs(const fs::path& dir, const RunManifest& m, RunStanding& s) {
  s.unit = "prefix";
  s.job = m.board_name() + (m.closed_only ? " closed" : " open") +
          (m.all_starts ? ", all starts" : ", prefix " + m.prefix.front()) +
          (m.command == Command::enumerate ? ", tours written" : "");
  s.shard = m.shard;
  s.planned = m.prefixes;
  s.planned_in_job = m.prefixes_in_plan;
  if (m.status == RunStatus::complete) {
    s.done = m.prefixes_done;
    s.tours = BigCount(m.tours);
    s.closed_tours = BigCount(m.closed_tours);
    return;
  }
  const CommittedJournal journal = read_committed(dir, m, std::nullopt, FileCheck::names);
  std::set<std::size_t> ids;
  BigCount tours, closed;
  for (const auto& r : journal.records) {
    if (ids.insert(r.id).second) {
      tours += BigCount(r.tours);
      closed += BigCount(r.closed);
    }
  }
  s.done = ids.size();
  s.tours = tours;  // lower bounds: the finished prefixes' tours
  s.closed_tours = closed;
}

// A frontier run, as read_frontier_run() reads it for --resume.
void read_frontier(const fs::path& dir, RunStanding& s) {
  const FrontierRunFiles f = read_frontier_run(dir);
  const RunManifest& m = f.manifest;
  const FrontierRequest& r = f.request;
  s.job = describe(f.job);
  s.shard = r.shard;
  const int planned = m.frontier.sweeps_planned;
  s.planned_in_job = static_cast<std::uint64_t>(planned);
  if (r.every_length) {
    s.unit = "count";
    s.under_way_unit = "sweep";
    s.planned = s.planned_in_job;
  } else if (r.grid == GridMethod::end_pairs) {
    s.unit = "unit";
    s.planned = static_cast<std::uint64_t>(units_in_shard(planned, r.shard));
  } else {
    s.unit = "sweep";
    s.planned = s.planned_in_job;
  }
  s.done = m.frontier.finished.size();
  for (const auto& [sweep, header] : f.checkpoints)
    s.under_way.emplace_back(sweep, header.next_step);
  if (m.status == RunStatus::complete) {
    s.tours = BigCount::parse(m.frontier.tours);
    s.closed_tours = BigCount::parse(m.frontier.closed_tours);
    if (!r.sharded() && !r.end) s.closed_cycles = BigCount::parse(m.frontier.closed_cycles);
  }
}

}  // namespace

bool holds_run(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(run_layout::manifest_path(dir), ec) ||
         fs::is_regular_file(dir / run_layout::kRanksFile, ec);
}

RunStanding read_standing(const fs::path& dir) {
  RunStanding s;
  s.dir = dir;
  try {
    fs::path share = dir;
    if (run_layout::holds_ranked_shares(dir)) {
      const auto run = read_ranked_run(dir);
      s.ranks = run ? run->ranks : 1;
      share = run_layout::rank_dir(dir, 0);  // every rank's share finishes the same sweeps
    }
    s.running = RunDirectory::holder(share);
    const RunManifest m = read_manifest(share);
    s.method = m.method;
    take_timings(m, s);
    if (m.method == Method::dfs) {
      read_dfs(share, m, s);
    } else {
      read_frontier(share, s);
    }
  } catch (const std::exception& e) {
    s.problem = e.what();
  }
  return s;
}

}  // namespace knightstour
