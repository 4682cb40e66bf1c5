#include "knightstour/count/run_standing.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/frontier_run/frontier_run_files.hpp"
#include "knightstour/frontier_run/verify_frontier.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "knightstour/run/verify.hpp"

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
  RunManifest any_shard = m;
  any_shard.shard.index = 0;
  s.job_key = dfs_job_key(any_shard);
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
  const FrontierManifest& m = f.manifest;
  const FrontierRequest& r = f.request;
  s.job = describe(f.job);
  s.modulus = r.modulus;
  s.shard = r.shard;
  FrontierManifest any_shard = m;  // whichever shard, whichever run and ranks counted it
  any_shard.frontier.shard.index = 0;
  any_shard.frontier.run_id.clear();
  any_shard.frontier.rank = 0;
  any_shard.frontier.ranks = 1;
  s.job_key = frontier_job_key(any_shard);
  const int planned = m.frontier.sweeps_planned;
  s.planned_in_job = static_cast<std::uint64_t>(planned);
  // A residue unit is its job's unit K of the N primes (residue_primes): a share of the job
  // like a shard, though merge combines units' counts by their residues instead of summing.
  const std::vector<std::uint64_t> primes =
      r.modulus != 0 ? residue_primes(r) : std::vector<std::uint64_t>{};
  const auto unit = std::find(primes.begin(), primes.end(), r.modulus);
  if (unit != primes.end()) {
    s.shard = {static_cast<int>(unit - primes.begin()), static_cast<int>(primes.size())};
    any_shard.frontier.modulus = 0;
    s.job_key = frontier_job_key(any_shard) + "|residue units";
    s.planned_in_job *= primes.size();  // each unit plans the whole job
  }
  if (r.every_length) {
    s.unit = "count";
    s.under_way_unit = "sweep";
    s.planned = static_cast<std::uint64_t>(planned);
  } else if (r.grid == GridMethod::end_pairs) {
    s.unit = "unit";
    s.planned = static_cast<std::uint64_t>(units_in_shard(planned, r.shard));
  } else {
    s.unit = "sweep";
    s.planned = static_cast<std::uint64_t>(planned);
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
  // A manifest.json of any kind (a FIFO too): reading it says what is wrong with it.
  return fs::exists(fs::symlink_status(run_layout::manifest_path(dir), ec)) ||
         fs::is_regular_file(dir / run_layout::kRanksFile, ec);
}

namespace {

// The checks every reader shares (those of verify, short of reading every tour): a run they
// refuse has no standing to show. The first problem, or "".
std::string first_problem(const fs::path& dir, const fs::path& share, Method method, bool ranked) {
  if (method == Method::dfs) {
    const VerifyReport report = verify_run_directory(share, {/*read_tours=*/false});
    return report.ok ? std::string() : report.problem;
  }
  const FrontierVerdict verdict = ranked ? verify_ranked_run(dir) : verify_frontier_run(dir);
  return verdict.ok ? std::string() : verdict.problem;
}

RunStanding read_once(const fs::path& dir) {
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
    s.problem = first_problem(dir, share, m.method, s.ranks > 1);
  } catch (const std::exception& e) {
    s.problem = e.what();
  }
  return s;
}

}  // namespace

RunStanding read_standing(const fs::path& dir) {
  // A run read while its process writes it can be seen between two of its files (a
  // checkpoint renamed into place after its journal line was read): read it again.
  constexpr int kTries = 3;
  RunStanding s = read_once(dir);
  for (int i = 1; i < kTries && !s.problem.empty() && s.running; ++i) s = read_once(dir);
  return s;
}

}  // namespace knightstour
