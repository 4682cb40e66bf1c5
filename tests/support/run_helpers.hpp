#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/run/job_runner.hpp"

namespace knightstour::test {

// One enumerate session on `dir`, as the CLI runs it: new or --resume.
struct SessionResult {
  RunReport report;
  std::vector<std::string> cleaned;
};
SessionResult enumerate_session(const std::filesystem::path& dir, const std::string& board,
                                const std::string& start, bool resume, Caps caps = {},
                                Shard shard = {}, int split_depth = 4,
                                TourFormat format = TourFormat::npy,
                                double checkpoint_seconds = 0.001);

}  // namespace knightstour::test
