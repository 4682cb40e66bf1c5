#include "knightstour/frontier_run/merge_frontier.hpp"

#include <map>
#include <string>
#include <utility>

#include "frontier_run/merge_residues.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/frontier_run/verify_frontier.hpp"
#include "knightstour/run/merge.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

// The manifest of shard `dir` once it checks out as verify would check it (a shard counted
// over MPI ranks: rank 0's, which holds the shard's units).
FrontierManifest checked_shard(const fs::path& dir) {
  FrontierManifest m = verified_manifest(dir);
  if (!m.frontier.end_pairs) {
    throw UsageError(dir.string() +
                     " is a frontier count, not a shard of one by units of end pairs: there is "
                     "nothing to merge it with");
  }
  return m;
}

}  // namespace

FrontierMergeReport merge_frontier_runs(const std::vector<fs::path>& inputs, const fs::path& out,
                                        const Provenance& provenance) {
  if (inputs.empty()) throw UsageError("merge needs the shards' run directories");
  if (!run_layout::holds_ranked_shares(inputs.front()) &&
      read_frontier_manifest(inputs.front()).frontier.modulus != 0) {
    return merge_residue_units(inputs, out, provenance);
  }
  FrontierMergeReport report;
  report.inputs = inputs.size();
  std::optional<FrontierManifest> first;
  std::map<int, fs::path> by_shard;
  std::map<int, BigCount> by_unit;
  double seconds = 0;
  std::vector<MergedInput> listed;
  for (const fs::path& dir : inputs) {
    const FrontierManifest m = checked_shard(dir);
    const FrontierProgress& f = m.frontier;
    if (!first) {
      first = m;
    } else if (m.rows != first->rows || m.cols != first->cols ||
               f.shard.count != first->frontier.shard.count) {
      throw UsageError(dir.string() + " is a shard of another count (" + m.board_name() + ", " +
                       std::to_string(f.shard.count) + " shards) than " + inputs.front().string() +
                       " (" + first->board_name() + ", " +
                       std::to_string(first->frontier.shard.count) + " shards)");
    }
    if (const auto [it, fresh] = by_shard.emplace(f.shard.index, dir); !fresh) {
      throw UsageError("shard " + std::to_string(f.shard.index) +
                       " is given twice: " + it->second.string() + " and " + dir.string());
    }
    for (const auto& [unit, count] : f.finished) by_unit[unit] = BigCount::parse(count);
    listed.push_back(merged_input(dir, f.shard.index, m.provenance));
    seconds += m.seconds;
    report.cpu_seconds += m.cpu_seconds;
  }
  const int shards = first->frontier.shard.count;
  for (int k = 0; k < shards; ++k) {
    if (!by_shard.contains(k)) {
      throw UsageError("shard " + std::to_string(k) + " of " + std::to_string(shards) +
                       " is missing: merge needs the run directory of every shard");
    }
  }
  FrontierRequest request = FrontierRunDir::request_of(*first);
  request.shard = {};
  const auto units = end_pair_units(request.shape);
  report.units = static_cast<int>(units.size());
  report.units_done = static_cast<int>(by_unit.size());
  for (const auto& u : units) {
    if (!by_unit.contains(u.id)) report.missing.push_back(u.id);
  }
  FrontierManifest base;
  base.provenance = provenance;
  base.inputs = std::move(listed);
  FrontierManifest m = FrontierRunDir::new_manifest(request, base);
  m.frontier.checkpoint_seconds = first->frontier.checkpoint_seconds;
  for (const auto& [unit, count] : by_unit) m.frontier.finished[unit] = count.str();
  FrontierReport whole;
  whole.complete = report.complete();
  whole.stop_reason = whole.complete ? StopReason::none : StopReason::missing_shards;
  if (whole.complete) {
    const EndPairCounts c = end_pair_counts(request.shape, units, by_unit);
    whole.tours = c.tours;
    whole.closed_tours = c.closed_tours;
    whole.cycles = c.cycles.value_or(BigCount{});
    whole.tours_by_start = c.tours_by_start;
    report.tours = whole.tours;
    report.closed_tours = whole.closed_tours;
    report.cycles = whole.cycles;
  }
  FrontierRunDir::record_outcome(m, whole);
  m.seconds = seconds;
  m.cpu_seconds = report.cpu_seconds;
  publish_merged_run(out, m);
  return report;
}

FrontierManifest verified_manifest(const fs::path& dir) {
  const bool ranked = run_layout::holds_ranked_shares(dir);
  const FrontierVerdict v = ranked ? verify_ranked_run(dir) : verify_frontier_run(dir);
  if (!v.ok) {
    const bool named = v.problem.find(dir.string()) != std::string::npos;
    throw FormatError(named ? v.problem : dir.string() + ": " + v.problem);
  }
  return read_frontier_manifest(ranked ? run_layout::rank_dir(dir, 0) : dir);
}

void publish_merged_run(const fs::path& out, const FrontierManifest& merged) {
  NewRunDirectory built = NewRunDirectory::begin(out, kMergeWritesNew);
  write_manifest(built.path(), merged);
  built.publish();
}

}  // namespace knightstour
