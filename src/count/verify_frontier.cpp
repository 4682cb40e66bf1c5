#include "knightstour/count/verify_frontier.hpp"

#include <map>
#include <optional>
#include <stdexcept>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/count/frontier_run_dir.hpp"
#include "knightstour/frontier/end_pair_units.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

// A run by units of end pairs finishes only its shard's units; when complete, every one of
// them, and its counts are what they add up to (end_pair_counts).
void check_end_pair_counts(const RunManifest& m, const FrontierRequest& r, FrontierVerdict& v) {
  const FrontierProgress& f = m.frontier;
  const auto units = end_pair_units(r.shape);
  std::map<int, BigCount> by_unit;
  const int mine = units_in_shard(static_cast<int>(units.size()), r.shard_index, r.shard_count);
  for (const auto& [unit, count] : f.finished) {
    if (!unit_in_shard(unit, r.shard_index, r.shard_count)) {
      v.fail("unit " + std::to_string(unit) + " is finished but is not shard " +
             std::to_string(r.shard_index) + "'s");
      return;
    }
    by_unit[unit] = BigCount::parse(count);
  }
  if (m.status != RunStatus::complete) return;
  if (static_cast<int>(by_unit.size()) != mine) {
    v.fail("the run is marked complete with " + std::to_string(by_unit.size()) + " of its " +
           std::to_string(mine) + " units finished");
    return;
  }
  const EndPairCounts c = end_pair_counts(r.shape, units, by_unit);
  const BigCount& tours = c.tours;
  if (BigCount::parse(f.tours) != tours) v.fail("tours does not follow from the units");
  if (BigCount::parse(f.closed_tours) != c.closed_tours) v.fail("closed_tours does not follow");
  if (c.cycles && BigCount::parse(f.closed_cycles) != *c.cycles) {
    v.fail("closed_cycles does not follow from the units");
  }
  std::vector<std::string> grid;
  for (const auto& t : c.tours_by_start) grid.push_back(t.str());
  if (f.tours_by_start != grid) v.fail("the counts by start square do not follow from the units");
  if (v.ok) {
    v.checked.push_back("counts follow from the " + std::to_string(mine) + " finished units" +
                        (r.sharded() ? " (a shard's share)" : "") + ": " + tours.with_commas() +
                        " tours");
  }
}

// When complete, the counts must follow from the finished sweeps (frontier_job's order:
// sweep 0 counts the closed cycles C; an open count from a start has its paths in sweep 1).
void check_counts(const RunManifest& m, const FrontierRequest& r, FrontierVerdict& v) {
  const FrontierProgress& f = m.frontier;
  if (static_cast<int>(f.finished.size()) != f.sweeps_planned) {
    v.fail("the run is marked complete with " + std::to_string(f.finished.size()) + " of " +
           std::to_string(f.sweeps_planned) + " sweeps finished");
    return;
  }
  const BigCount cycles = BigCount::parse(f.finished.at(0));
  const std::uint64_t starts = r.start ? 1 : static_cast<std::uint64_t>(r.shape.squares());
  const BigCount closed_tours = cycles * 2 * starts;
  BigCount tours;  // open: from sweep 1, or the grid's sum
  if (r.closed) {
    tours = closed_tours;
  } else if (r.start) {
    tours = BigCount::parse(f.finished.at(1));
  } else if (r.total_only) {
    tours = BigCount::parse(f.finished.at(1)) * 2;  // every path, two ways
  } else {
    for (const auto& c : f.tours_by_start) tours += BigCount::parse(c);
  }
  if (r.shape.squares() == 1 && !r.closed) tours = BigCount(1);
  if (BigCount::parse(f.closed_cycles) != cycles) v.fail("closed_cycles is not sweep 1's count");
  if (BigCount::parse(f.closed_tours) != closed_tours) v.fail("closed_tours does not follow");
  if (BigCount::parse(f.tours) != tours) v.fail("tours does not follow from the sweeps");
  if (r.total_only && !f.tours_by_start.empty()) {
    v.fail("a total-only run lists counts by start square");
  } else if (!r.start && !r.total_only &&
             f.tours_by_start.size() != static_cast<std::size_t>(r.shape.squares())) {
    v.fail("the counts by start square do not cover the board");
  }
  if (v.ok) {
    v.checked.push_back("counts follow from the finished sweeps: " +
                        BigCount::parse(f.tours).with_commas() + " tours");
  }
}

// Checks the run directory `dir` into `v`, its lines prefixed with `label`; returns its
// manifest (nothing when it cannot be read).
std::optional<RunManifest> check_dir(const fs::path& dir, const std::string& label,
                                     FrontierVerdict& v) {
  RunManifest m;
  FrontierRequest r;
  try {
    m = read_manifest(dir);
    if (m.method != Method::frontier) throw FormatError(dir.string() + " is not a frontier run");
    r = FrontierRunDir::request_of(m);
  } catch (const std::exception& e) {
    v.fail(e.what());
    return std::nullopt;
  }
  const CheckpointJob job = FrontierRunDir::job_of(m);
  v.checked.push_back(label + "manifest.json: checksum matches; " + describe(job) + "; " +
                      (job.ranks > 1 ? describe_owner(job) + "; " : std::string()) +
                      std::to_string(m.frontier.finished.size()) + " of " +
                      std::to_string(m.frontier.sweeps_planned) + " sweeps finished; status " +
                      to_string(m.status));
  if (r.grid == GridMethod::end_pairs) {
    check_end_pair_counts(m, r, v);
  } else if (m.status == RunStatus::complete) {
    check_counts(m, r, v);
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    // A staged checkpoint (ranks saving when one stopped) is checked like any other.
    const auto sweep = run_layout::parse_any_checkpoint_name(name);
    if (!sweep) continue;
    try {
      const CheckpointHeader h = check_checkpoint(entry.path(), job);
      if (h.sweep != *sweep) {
        v.fail(label + name + " holds sweep " + std::to_string(h.sweep + 1));
      } else if (*sweep > m.frontier.sweeps_planned) {
        v.fail(label + name + " is of a sweep the job does not run");
      } else {
        v.checked.push_back(label + name + ": job, owner, header and data checksums match; step " +
                            std::to_string(h.next_step) + ", " + with_commas(h.classes) +
                            " classes");
      }
    } catch (const std::exception& e) {
      v.fail(e.what());
    }
  }
  return m;
}

}  // namespace

FrontierVerdict verify_frontier_run(const fs::path& dir) {
  FrontierVerdict v;
  const auto m = check_dir(dir, "", v);
  if (m && m->frontier.ranks > 1) {
    // A share checks out file by file, but it is not a count: say where the count is.
    FrontierVerdict share;
    share.fail(dir.string() + " holds " + describe_owner(FrontierRunDir::job_of(*m)) +
               ", not a count: verify the directory that holds it and ranks.json" +
               (v.ok ? "" : " (and: " + v.problem + ")"));
    share.checked = std::move(v.checked);
    return share;
  }
  return v;
}

FrontierVerdict verify_ranked_run(const fs::path& top) {
  FrontierVerdict v;
  std::optional<RankedRun> run;
  try {
    run = read_ranked_run(top);
    if (!run) throw FormatError(top.string() + " holds no " + run_layout::kRanksFile);
  } catch (const std::exception& e) {
    v.fail(e.what());
    return v;
  }
  v.checked.push_back(std::string(run_layout::kRanksFile) + ": a count over " +
                      std::to_string(run->ranks) + " MPI ranks" +
                      (run->run_id.empty() ? "" : ", run id " + run->run_id));
  std::optional<RunManifest> first;
  for (int k = 0; k < run->ranks; ++k) {
    const fs::path dir = run_layout::rank_dir(top, k);
    const std::string label = dir.filename().string() + "/";
    if (!fs::exists(run_layout::manifest_path(dir))) {
      v.fail(label + " is missing (or holds no manifest.json): the run needs every rank's share");
      continue;
    }
    const auto m = check_dir(dir, label, v);
    if (!m) continue;
    try {
      check_rank_share(dir, *m, *run, k);
    } catch (const std::exception& e) {
      v.fail(e.what());
    }
    if (!first) {
      first = m;
    } else if (!m->differences(*first).empty() || m->status != first->status ||
               m->frontier.finished != first->frontier.finished ||
               m->frontier.tours != first->frontier.tours) {
      v.fail(label + " does not agree with rank-0/ on the job, its status or its counts");
    }
  }
  // A share past the last rank is of another run.
  if (fs::exists(run_layout::rank_dir(top, run->ranks))) {
    v.fail(run_layout::rank_dir(top, run->ranks).filename().string() +
           "/ is a rank the run does not have (" + std::to_string(run->ranks) + " ranks)");
  }
  return v;
}

}  // namespace knightstour
