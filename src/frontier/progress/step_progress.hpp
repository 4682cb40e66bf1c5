#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "knightstour/frontier/sweep_outlook.hpp"

namespace knightstour::frontier_detail {

// A finished step's figures over the MPI ranks.
struct RankStep {
  int step = -1;                // zero-based; -1: no step finished over ranks yet
  std::uint64_t exchanged = 0;  // bytes the ranks sent each other in it
  int slowest = 0;              // the rank that was busy longest (the others waited for it)
  double slowest_busy = 0;      // seconds it was busy
  double fastest_busy = 0;      // seconds the least busy rank was
};

// What the progress line reads while a step runs.
struct StepProgress {
  std::atomic<int> step{0};
  std::atomic<std::uint64_t> current{0};    // classes of the generation being expanded
  std::atomic<std::uint64_t> expanded{0};   // of those, expanded so far in this pass
  std::atomic<int> pass{0};                 // passes over the generation this step, so far
  std::atomic<int> passes{1};               // passes planned (more when memory is short)
  std::atomic<int> redone{0};               // ranges that did not fit and were split, so far
  std::atomic<std::uint64_t> exchanged{0};  // bytes this rank sent to other ranks
  std::atomic<int> by_strategy[kStepStrategies] = {};  // steps finished, by StepStrategy
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  // The sizes after each step and the classes expanded in finished steps, for the progress
  // thread: the sweep's own copy (FrontierResult) grows while that thread would read it.
  void step_done(std::uint64_t expanded_in_step, std::uint64_t size_after) {
    std::lock_guard lock(history_mutex);
    expanded_before += expanded_in_step;
    sizes.push_back(size_after);
  }
  std::pair<std::vector<std::uint64_t>, std::uint64_t> history() const {
    std::lock_guard lock(history_mutex);
    return {sizes, expanded_before};
  }
  void ranks_step_done(const RankStep& figures) {
    std::lock_guard lock(history_mutex);
    last_rank_step = figures;
  }
  RankStep ranks_step() const {
    std::lock_guard lock(history_mutex);
    return last_rank_step;
  }

 private:
  mutable std::mutex history_mutex;
  std::vector<std::uint64_t> sizes;
  std::uint64_t expanded_before = 0;
  RankStep last_rank_step;
};

}  // namespace knightstour::frontier_detail
