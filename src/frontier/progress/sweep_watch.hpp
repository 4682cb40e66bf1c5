#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace knightstour {

// Where the running sweep stands, as the job's progress line shows it.
struct SweepSnapshot {
  std::string label;  // what the sweep counts, e.g. "open tours from r,c 0,1"
  int step = 0;       // zero-based step under way
  int steps = 0;
  int width = 1;  // squares a column
  int pass = 0;   // pass over the generation under way, of `passes`
  int passes = 1;
  std::uint64_t classes = 0;  // of the generation being expanded
  double budget_gib = 0;      // of the memory budget in use
  double spilled_gib = 0;
  double seconds_left = -1;  // projected for the rest of the sweep; < 0: not yet to be told
  // Over MPI ranks, the last finished step (zero-based; -1: none or one process): what the
  // ranks sent each other in it and the seconds the busiest and the least busy rank worked.
  int ranks_step = -1;
  double step_exchanged_gib = 0;
  int slowest_rank = 0;
  double slowest_busy = 0;
  double fastest_busy = 0;
};

// A job counts in several sweeps but shows one progress line: the running sweep registers
// how to read it here, and the job's progress thread reads it. Reads take a lock; the
// sweep's hot loop never does (its reader looks at atomics).
class SweepWatch {
 public:
  void watch(std::function<SweepSnapshot()> read) {
    std::lock_guard lock(mutex_);
    read_ = std::move(read);
  }
  void stop_watching() {
    std::lock_guard lock(mutex_);
    read_ = nullptr;
  }
  std::optional<SweepSnapshot> snapshot() const {
    std::lock_guard lock(mutex_);
    if (!read_) return std::nullopt;
    return read_();
  }

 private:
  mutable std::mutex mutex_;
  std::function<SweepSnapshot()> read_;
};

}  // namespace knightstour
