#include "knightstour/frontier_run/frontier_run_files.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const fs::path& where, const std::string& why) {
  throw FormatError(where.string() + ": " + why);
}

// A sweep the run may hold: in the plan and, by units of end pairs, in the shard's deal. An
// all-starts job by pinned tails also saves its shared prefix, as sweep number planned.
bool in_plan(const FrontierRunFiles& f, int sweep, bool saved_state) {
  const FrontierRequest& r = f.request;
  const int planned = f.manifest.frontier.sweeps_planned;
  if (r.grid == GridMethod::end_pairs) {
    return sweep >= 0 && sweep < planned && unit_in_shard(sweep, r.shard);
  }
  if (r.every_length) {  // lengths finish; the sweeps across the rows only keep checkpoints
    return sweep >= 0 && sweep < planned + (saved_state ? row_sweeps_across(r) : 0);
  }
  const bool has_prefix = !r.closed && !r.start && !r.total_only;
  return sweep >= 0 && (sweep < planned || (saved_state && has_prefix && sweep == planned));
}

// By units of end pairs, a complete run's counts are what its units add up to.
void check_end_pair_counts(const fs::path& dir, FrontierRunFiles& f) {
  const FrontierManifest& m = f.manifest;
  const FrontierRequest& r = f.request;
  const auto units = end_pair_units(r.shape);
  const int mine = units_in_shard(static_cast<int>(units.size()), r.shard);
  if (m.status != RunStatus::complete) return;
  if (static_cast<int>(m.frontier.finished.size()) != mine) {
    refuse(dir, "the run is marked complete with " + std::to_string(m.frontier.finished.size()) +
                    " of its " + std::to_string(mine) + " units finished");
  }
  std::map<int, BigCount> by_unit;
  for (const auto& [unit, count] : m.frontier.finished) by_unit[unit] = BigCount::parse(count);
  const EndPairCounts c = end_pair_counts(r.shape, units, by_unit, r.shard.index);
  const FrontierProgress& p = m.frontier;
  if (BigCount::parse(p.tours) != c.tours) refuse(dir, "tours does not follow from the units");
  if (BigCount::parse(p.closed_tours) != c.closed_tours) {
    refuse(dir, "closed_tours does not follow from the units");
  }
  if (c.cycles && BigCount::parse(p.closed_cycles) != *c.cycles) {
    refuse(dir, "closed_cycles does not follow from the units");
  }
  std::vector<std::string> grid;
  for (const auto& t : c.tours_by_start) grid.push_back(t.str());
  if (p.tours_by_start != grid) {
    refuse(dir, "the counts by start square do not follow from the units");
  }
  f.checked.push_back("counts follow from the " + std::to_string(mine) + " finished units" +
                      (r.sharded() ? " (a shard's share)" : "") + ": " + c.tours.with_commas() +
                      " tours");
}

// A complete run's counts follow from its sweeps (frontier_job's order: sweep 0 counts the
// closed cycles C; an open count from a start has its paths in sweep 1).
void check_counts(const fs::path& dir, FrontierRunFiles& f) {
  const FrontierManifest& m = f.manifest;
  const FrontierRequest& r = f.request;
  const FrontierProgress& p = m.frontier;
  if (m.status != RunStatus::complete) return;
  if (static_cast<int>(p.finished.size()) != p.sweeps_planned) {
    refuse(dir, "the run is marked complete with " + std::to_string(p.finished.size()) + " of " +
                    std::to_string(p.sweeps_planned) + " sweeps finished");
  }
  // A row's counts are its longest length's (units cols - 1 and 2 cols - 1).
  const int cycles_unit = r.every_length ? r.shape.cols - 1 : 0;
  const int paths_unit = r.every_length ? 2 * r.shape.cols - 1 : 1;
  const BigCount cycles = BigCount::parse(p.finished.at(cycles_unit));
  const std::uint64_t starts = r.start ? 1 : static_cast<std::uint64_t>(r.shape.squares());
  BigCount closed_tours = cycles * 2 * starts;
  BigCount tours;  // open: from sweep 1, or the grid's sum
  if (r.closed) {
    tours = closed_tours;
  } else if (r.start) {
    tours = BigCount::parse(p.finished.at(1));
  } else if (r.total_only) {
    tours = BigCount::parse(p.finished.at(paths_unit)) * 2;  // every path, two ways
  } else {
    for (const auto& c : p.tours_by_start) tours += BigCount::parse(c);
  }
  if (r.shape.squares() == 1 && !r.closed) tours = BigCount(1);
  if (r.modulus != 0) {  // a residue unit's counts are residues, as its sweeps' are
    tours = residue(tours, r.modulus);
    closed_tours = residue(closed_tours, r.modulus);
  }
  if (BigCount::parse(p.closed_cycles) != cycles) {
    refuse(dir, "closed_cycles is not sweep " + std::to_string(cycles_unit + 1) + "'s count");
  }
  if (BigCount::parse(p.closed_tours) != closed_tours) refuse(dir, "closed_tours does not follow");
  if (BigCount::parse(p.tours) != tours) refuse(dir, "tours does not follow from the sweeps");
  if (r.total_only && !p.tours_by_start.empty()) {
    refuse(dir, "a total-only run lists counts by start square");
  }
  if (r.every_length && !p.tours_by_start.empty()) {
    refuse(dir, "a row of every length lists counts by start square");
  }
  if (!r.start && !r.total_only && !r.every_length &&
      p.tours_by_start.size() != static_cast<std::size_t>(r.shape.squares())) {
    refuse(dir, "the counts by start square do not cover the board");
  }
  f.checked.push_back("counts follow from the finished sweeps: " + tours.with_commas() + " tours" +
                      (r.modulus != 0 ? " (mod " + std::to_string(r.modulus) + ")" : ""));
}

// The sweep journal's finished sweeps, in the plan and agreeing with the manifest, join it.
void fold_journal(const fs::path& dir, FrontierRunFiles& f) {
  const fs::path path = dir / run_layout::kSweepJournal;
  f.journal = read_sweep_journal(path, frontier_job_key(f.manifest));
  auto& finished = f.manifest.frontier.finished;
  for (const auto& [sweep, count] : f.journal.finished) {
    if (!in_plan(f, sweep, false)) {
      refuse(path, "finishes sweep " + std::to_string(sweep) + ", which is not in the run's plan" +
                       (f.request.sharded() ? " or the shard's deal" : ""));
    }
    const auto [it, fresh] = finished.emplace(sweep, count);
    if (!fresh && it->second != count) {
      refuse(path, "finishes sweep " + std::to_string(sweep) + " with another count than " +
                       run_layout::kManifest + " (" + count + ", not " + it->second + ")");
    }
  }
  for (const auto& c : f.journal.checkpoints) {
    if (!in_plan(f, c.sweep, true)) {
      refuse(path, "records a checkpoint of sweep " + std::to_string(c.sweep) +
                       ", which is not in the run's plan");
    }
  }
  if (f.manifest.status == RunStatus::complete &&
      finished.size() != f.manifest.frontier.finished.size()) {
    refuse(path, "finishes sweeps a complete run does not list");
  }
}

// A checkpoint file: its header names this job, owner and run, the sweep of its name, and a
// state the journal records; else it is refused. One of a finished sweep is a leftover.
void take_checkpoint(const fs::path& dir, const std::string& name, int sweep, bool staged,
                     FrontierRunFiles& f) {
  const fs::path path = dir / name;
  if (!in_plan(f, sweep, true)) {
    refuse(path, "is a checkpoint of sweep " + std::to_string(sweep) +
                     ", which is not in the run's plan" +
                     (f.request.sharded() ? " or the shard's deal" : ""));
  }
  if (staged && f.job.ranks <= 1) {
    refuse(path, "is a staged checkpoint, which only a run over MPI ranks writes");
  }
  const bool done =
      f.manifest.status == RunStatus::complete || f.manifest.frontier.finished.contains(sweep);
  if (done) {
    f.leftovers.push_back(name);
    return;
  }
  const auto header = read_checkpoint_header(path, f.job);  // another job, owner or run: refused
  if (!header) return;                                      // gone since the listing
  if (header->sweep != sweep) {
    refuse(path, "holds sweep " + std::to_string(header->sweep) + ", not sweep " +
                     std::to_string(sweep) + " as its name says");
  }
  const auto& records = f.journal.checkpoints;
  if (std::none_of(records.begin(), records.end(),
                   [&](const CheckpointRecord& r) { return r.records(*header); })) {
    refuse(path, std::string("is a checkpoint that no line of ") + run_layout::kSweepJournal +
                     " records (written by another run, by a knightstour before checkpoints were "
                     "recorded, or changed by hand); delete it to count sweep " +
                     std::to_string(sweep) + " from its start");
  }
  (staged ? f.staged : f.checkpoints)[sweep] = *header;
}

void read_entries(const fs::path& dir, FrontierRunFiles& f) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == run_layout::kManifest || name == run_layout::kLock ||
        name == run_layout::kSweepJournal) {
      continue;
    }
    if (run_layout::is_temp_name(name) || name == run_layout::kSpillDir) {
      f.leftovers.push_back(name);
      continue;
    }
    if (const auto sweep = run_layout::parse_checkpoint_name(name)) {
      take_checkpoint(dir, name, *sweep, false, f);
    } else if (const auto staged = run_layout::parse_staged_checkpoint_name(name)) {
      take_checkpoint(dir, name, *staged, true, f);
    } else if (run_layout::holds_run_file(name)) {
      refuse(entry.path(), "is not a file a frontier run of one process holds (" +
                               std::string(run_layout::parse_rank_dir_name(name)
                                               ? "a rank's share belongs beside ranks.json"
                                               : "an odd name, or another kind of run's") +
                               "): move it out of the run directory");
    }
  }
  std::sort(f.leftovers.begin(), f.leftovers.end());
}

}  // namespace

FrontierRunFiles read_frontier_run(const fs::path& dir) {
  FrontierRunFiles f;
  if (read_manifest(dir).method != Method::frontier) refuse(dir, "it is not a frontier run");
  f.manifest = read_frontier_manifest(dir);
  f.request = FrontierRunDir::request_of(f.manifest);
  f.job = FrontierRunDir::job_of(f.manifest);
  const int planned = planned_sweeps(f.request);
  if (f.manifest.frontier.sweeps_planned != planned) {
    refuse(run_layout::manifest_path(dir),
           "plans " + std::to_string(f.manifest.frontier.sweeps_planned) + " sweeps, and " +
               describe(f.job) + " has " + std::to_string(planned));
  }
  for (const auto& [sweep, count] : f.manifest.frontier.finished) {
    if (!in_plan(f, sweep, false)) {
      refuse(run_layout::manifest_path(dir),
             "finishes sweep " + std::to_string(sweep) + ", which is not in the shard's deal");
    }
  }
  f.checked.push_back("manifest.json: checksum matches; " + describe(f.job) + "; " +
                      (f.job.ranks > 1 ? describe_owner(f.job) + "; " : std::string()) +
                      std::to_string(f.manifest.frontier.finished.size()) + " of " +
                      std::to_string(planned) + " sweeps finished in it; status " +
                      to_string(f.manifest.status));
  fold_journal(dir, f);
  if (!f.journal.finished.empty() || !f.journal.checkpoints.empty()) {
    f.checked.push_back(std::string(run_layout::kSweepJournal) + ": every line checks out; " +
                        std::to_string(f.journal.finished.size()) + " sweeps finished, " +
                        std::to_string(f.journal.checkpoints.size()) + " checkpoints recorded" +
                        (f.journal.torn_tail ? "; a torn last line left out" : ""));
  }
  if (f.request.grid == GridMethod::end_pairs) {
    check_end_pair_counts(dir, f);
  } else {
    check_counts(dir, f);
  }
  read_entries(dir, f);
  return f;
}

void check_ranked_top(const fs::path& top, int ranks) {
  for (const auto& entry : fs::directory_iterator(top)) {
    const std::string name = entry.path().filename().string();
    const auto rank = run_layout::parse_rank_dir_name(name);
    if (rank && *rank >= ranks) {
      refuse(entry.path(), "is the share of a rank the run does not have (it has " +
                               std::to_string(ranks) + " ranks): move it out");
    }
    if (name == run_layout::kManifest ||
        (!rank && name != run_layout::kRanksFile && run_layout::holds_run_file(name))) {
      refuse(entry.path(),
             "does not belong beside ranks.json (each rank's files are in its "
             "rank-<r>/): move it out");
    }
  }
}

}  // namespace knightstour
