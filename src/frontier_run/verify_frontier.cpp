#include "knightstour/frontier_run/verify_frontier.hpp"

#include <optional>
#include <stdexcept>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/frontier_run/frontier_run_files.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

// Checks the run directory `dir` into `v`, its lines prefixed with `label`: what
// read_frontier_run() refuses (what --resume and merge refuse too), then every checkpoint's
// data in full. Returns its manifest (nothing when it was refused).
std::optional<FrontierManifest> check_dir(const fs::path& dir, const std::string& label,
                                          FrontierVerdict& v) {
  FrontierRunFiles f;
  try {
    f = read_frontier_run(dir);
  } catch (const std::exception& e) {
    v.fail(e.what());
    return std::nullopt;
  }
  for (const auto& line : f.checked) v.checked.push_back(label + line);
  for (const auto* saved : {&f.checkpoints, &f.staged}) {
    for (const auto& [sweep, header] : *saved) {
      const std::string name = saved == &f.staged ? run_layout::staged_checkpoint_name(sweep)
                                                  : run_layout::checkpoint_name(sweep);
      try {
        const CheckpointHeader h = check_checkpoint(dir / name, f.job);
        v.checked.push_back(label + name +
                            ": job, owner, header and data checksums match, and the journal "
                            "records it; step " +
                            std::to_string(h.next_step) + ", " + with_commas(h.classes) +
                            " classes");
      } catch (const std::exception& e) {
        v.fail(e.what());
      }
    }
  }
  if (!f.leftovers.empty()) {
    std::string names;
    for (const auto& n : f.leftovers) names += (names.empty() ? "" : ", ") + n;
    // A run being counted holds its own spill and temp files: they are not left over.
    const auto holder = RunDirectory::holder(dir);
    v.checked.push_back(label +
                        (holder ? "being written by the running process " +
                                      std::to_string(*holder) + " (not read here): "
                                : std::string("left by an interrupted session, removed on "
                                              "$resume: ")) +
                        names);
  }
  return f.manifest;
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
  std::optional<FrontierManifest> first;
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
  try {
    check_ranked_top(top, run->ranks);
  } catch (const std::exception& e) {
    v.fail(e.what());
  }
  return v;
}

}  // namespace knightstour
