#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace knightstour::frontier_detail {

// What the progress line reads while a step runs.
struct Live {
  std::atomic<int> step{0};
  std::atomic<std::uint64_t> current{0};    // classes of the generation being expanded
  std::atomic<std::uint64_t> expanded{0};   // of those, expanded so far in this pass
  std::atomic<int> pass{0};                 // passes over the generation this step, so far
  std::atomic<int> passes{1};               // passes planned (more when memory is short)
  std::atomic<std::uint64_t> spilled{0};    // bytes written to spill files
  std::atomic<std::uint64_t> exchanged{0};  // bytes this rank sent to other ranks
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

 private:
  mutable std::mutex history_mutex;
  std::vector<std::uint64_t> sizes;
  std::uint64_t expanded_before = 0;
};

}  // namespace knightstour::frontier_detail
