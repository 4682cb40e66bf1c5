#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "count_jobs.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/frontier_run_files.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour::count_detail {

namespace fs = std::filesystem;

namespace {

// What the command line gives that the run in `dir` does not count, e.g. "board 6x7 vs 6x6".
std::vector<std::string> frontier_differences(const CountRequest& r, const FrontierRequest& run) {
  std::vector<std::string> out;
  auto name = [](BoardShape s) { return s.name(); };
  if (r.shape && !(*r.shape == run.shape)) {
    out.push_back("board " + name(*r.shape) + " vs " + name(run.shape));
  }
  if (closed_asked(r, run.closed) != run.closed) {
    out.push_back(run.closed ? "open tours vs closed (add $closed)" : "closed tours vs open");
  }
  const bool all = r.all_starts.value_or(false);
  if (all && run.start) out.push_back("all starts vs one start");
  if (!r.prefix.empty() && (!run.start || r.prefix.front() != *run.start)) {
    out.push_back("start square differs");
  }
  if (r.total_only && !run.total_only) out.push_back("total only vs tours from each square");
  const bool pairs = run.grid == GridMethod::end_pairs;
  if (r.grid && (*r.grid == GridMethod::end_pairs) != pairs) {
    out.push_back(pairs ? "units of end pairs vs another $grid"
                        : "$grid end-pairs vs another grid");
  }
  if (r.sharded() && !pairs) out.push_back("shards vs one count");
  std::optional<std::uint64_t> modulus = r.modulus;
  if (r.residue_unit) modulus = residue_unit_prime(run, *r.residue_unit);
  if (modulus && *modulus != run.modulus) {
    out.push_back((r.residue_unit ? "residue unit " + std::to_string(*r.residue_unit) + ", " : "") +
                  "modulo " + std::to_string(*modulus) + " vs " +
                  (run.modulus != 0 ? "modulo " + std::to_string(run.modulus) : "exact counts"));
  }
  if (r.shard && pairs &&
      (r.shard->index != run.shard.index || r.shard->count != run.shard.count)) {
    out.push_back("shard " + std::to_string(r.shard->index) + " of " +
                  std::to_string(r.shard->count) + " vs " + std::to_string(run.shard.index) +
                  " of " + std::to_string(run.shard.count));
  }
  return out;
}

}  // namespace

void check_resumable(Method method, const CountRequest& r, const fs::path& dir) {
  const bool dfs = method == Method::dfs;
  const std::string by = dfs ? "the enumerator" : "the frontier method";
  if (r.method == (dfs ? MethodAsked::frontier : MethodAsked::dfs)) {
    throw UsageError("the run in " + dir.string() + " is counted by " + by +
                     "; leave out $method " + (dfs ? "frontier" : "dfs") + " to resume it");
  }
  auto others = dfs ? r.frontier_options() : r.dfs_options();
  // A frontier shard resumes with its --shard-index/--shard-count (frontier_differences).
  if (!dfs) std::erase(others, std::string("$shard_count"));
  if (!others.empty()) {
    throw UsageError(
        others.front() +
        (dfs ? " applies to the frontier method only; the run in " + dir.string() +
                   " is counted by the enumerator"
             : " has no meaning for the frontier method, which counts the run in " + dir.string()));
  }
}

namespace {

// Refuses a command line that names another count than the run in `dir` counts.
void check_same_count(const CountRequest& r, const fs::path& dir, const FrontierRequest& run) {
  const auto diff = frontier_differences(r, run);
  if (diff.empty()) return;
  std::string list;
  for (const auto& d : diff) list += (list.empty() ? "" : "; ") + d;
  throw UsageError("the command line asks for another count than the run in " + dir.string() +
                   " (" + list + "); resume it as it is with: knightstour count $run_dir " +
                   dir.string() + " $resume");
}

}  // namespace

ResumedFrontier open_frontier(const CountRequest& r, const fs::path& dir, RunDirectory locked) {
  FrontierRunFiles files = read_frontier_run(dir);
  const FrontierManifest& m = files.manifest;
  check_same_count(r, dir, files.request);
  FrontierPlan plan = plan_frontier(r, {Method::frontier, "the run directory's method"}, &m);
  FrontierRunDir run =
      FrontierRunDir::open(std::move(locked), std::move(files), plan.checkpoint_seconds);
  return {std::move(plan), std::move(run)};
}

CountResult resume(const CountRequest& r) {
  const fs::path dir = r.run_dir.value();  // check(): a resume names its directory
  check_readable_run_path(dir);
  std::error_code ec;
  if (const auto n = run_layout::holds_ranked_shares(dir) ? read_ranked_run(dir) : std::nullopt) {
    throw UsageError(dir.string() + " holds a count over " + std::to_string(n->ranks) +
                     " MPI ranks: resume it with mpirun -np " + std::to_string(n->ranks) +
                     " (or srun with as many tasks)");
  }
  if (!fs::exists(run_layout::manifest_path(dir), ec) &&
      fs::exists(dir / run_layout::kOldFrontierJob, ec)) {
    throw UsageError(dir.string() + " holds a frontier run of format 1 (" +
                     run_layout::kOldFrontierJob +
                     "), which this knightstour does not resume; count it again in a new "
                     "directory");
  }
  if (!fs::exists(run_layout::manifest_path(dir), ec)) {
    throw UsageError(dir.string() + " holds no run to resume (no " + run_layout::kManifest + ")");
  }
  // A finished run is only read: no lock, nothing written (it may be a record on a read-only
  // file system); a frontier run's counts from its manifest (by end pairs, from its units),
  // the enumerator's from its journal (RunSession reads a finished run so).
  if (const RunManifest m = read_manifest(dir); m.status == RunStatus::complete) {
    if (const auto refusal = FrontierRunDir::share_refusal(dir, m)) throw UsageError(*refusal);
    check_resumable(m.method, r, dir);
    if (m.method == Method::dfs)
      return count_dfs(r, {Method::dfs, "the run directory's method"}, &m);
    const FrontierRunFiles files = read_frontier_run(dir);
    check_same_count(r, dir, files.request);
    return finished_frontier(dir, files.manifest, files.request,
                             {Method::frontier, "the run directory's method"});
  }
  // Lock first, then look: the manifest says which method resumes the run.
  RunDirectory locked = RunDirectory::open(dir);
  RunManifest m = read_manifest(dir);
  if (const auto refusal = FrontierRunDir::share_refusal(dir, m)) throw UsageError(*refusal);
  check_resumable(m.method, r, dir);
  if (m.method == Method::dfs) {
    { RunDirectory release = std::move(locked); }  // the run session locks it again
    return count_dfs(r, {Method::dfs, "the run directory's method"}, &m);
  }
  ResumedFrontier resumed = open_frontier(r, dir, std::move(locked));
  return count_frontier(r, resumed.plan, std::move(resumed.run));
}

}  // namespace knightstour::count_detail
