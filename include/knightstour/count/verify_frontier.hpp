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
FrontierVerdict verify_frontier_run(const std::filesystem::path& dir);

}  // namespace knightstour
