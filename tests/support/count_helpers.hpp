#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/run/job_runner.hpp"
#include "knightstour/search/search_mode.hpp"

namespace knightstour::test {

// Kernel directly on one start, no engine: tours by last square and nodes.
struct KernelCounts {
  std::uint64_t tours = 0;
  std::uint64_t nodes = 0;
  std::vector<std::uint64_t> by_end;
};
KernelCounts kernel_count(const Board& board, const std::vector<std::uint8_t>& prefix,
                          SearchMode mode);

// Every tour as a path, from the pruned kernel.
std::vector<std::vector<std::uint8_t>> kernel_tours(const Board& board,
                                                    const std::vector<std::uint8_t>& prefix,
                                                    bool closed);

// The whole pipeline (run_job) on a job built from text ("6x6", "a1") with the given knobs.
struct EngineKnobs {
  int threads = 2;
  std::optional<int> split_depth;
  bool symmetry = true;
  bool closed = false;
  Algorithm algorithm = Algorithm::pruned;
  Caps caps;
  Shard shard;
};
JobRequest make_job(const std::string& board, const std::string& start_or_prefix,
                    const EngineKnobs& knobs = {});
JobRequest make_all_starts_job(const std::string& board, const EngineKnobs& knobs = {});
RunReport count(const JobRequest& job);

// True when `path` is a knight's tour of the board (each square once, knight moves).
bool is_tour(const Board& board, const std::vector<std::uint8_t>& path);

}  // namespace knightstour::test
