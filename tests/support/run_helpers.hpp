#pragma once

#include <filesystem>
#include <string>

#include "knightstour/exec/enumerate_engine.hpp"
#include "knightstour/run/run_session.hpp"

namespace knightstour::test {

// One enumerate session on `dir`, as the CLI runs it: new or --resume.
struct SessionResult {
  EnumerateReport report;
  std::vector<std::string> cleaned;
};
SessionResult enumerate_session(const std::filesystem::path& dir, const std::string& board,
                                const std::string& start, bool resume, Caps caps = {},
                                Shard shard = {}, int split_depth = 4,
                                TourFormat format = TourFormat::npy,
                                double checkpoint_seconds = 0.001);

}  // namespace knightstour::test
