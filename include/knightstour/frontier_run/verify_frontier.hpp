#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace knightstour {

// What verify found in a frontier run directory.
struct FrontierVerdict {
  bool ok = true;
  std::string problem;               // the first problem: what, where
  std::vector<std::string> checked;  // what was checked, one line each
  void fail(std::string why) {
    if (ok) problem = std::move(why);
    ok = false;
  }
};

// Checks a frontier run directory: the manifest (its checksum, the finished sweeps against
// the plan; when complete, the counts against the finished sweeps), and every checkpoint in
// full (job, sweep, header and data checksums). A damaged file is a problem, not an exception.
// A directory that holds one MPI rank's share of a run is a problem: it is not a count.
FrontierVerdict verify_frontier_run(const std::filesystem::path& dir);

// Checks a frontier run over MPI ranks (run_layout: ranks.json and a rank-<r>/ a rank): each
// rank's directory as above, each naming its own rank, the number of ranks and the run id of
// ranks.json, and all agreeing on the job, its status and its counts.
FrontierVerdict verify_ranked_run(const std::filesystem::path& dir);

}  // namespace knightstour
