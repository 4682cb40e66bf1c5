#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "frontier/progress/sweep_watch.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/sweep/shorter_boards.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/frontier_options.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// The classes between two steps, with counts of 1, 2, 4, 8 or 16 limbs (64 to 1024 bits).
using AnyGeneration =
    std::variant<Generation<1>, Generation<2>, Generation<4>, Generation<8>, Generation<16>>;

// Generation's figures, whatever the width of its counts.
inline std::uint64_t classes_in(const AnyGeneration& g) {
  return std::visit([](const auto& x) -> std::uint64_t { return x.size(); }, g);
}
inline std::uint64_t memory_bytes_of(const AnyGeneration& g) {
  return std::visit([](const auto& x) { return x.memory_bytes(); }, g);
}
inline int limbs_of(const AnyGeneration& g) {
  return std::visit([](const auto& x) { return x.kLimbs; }, g);
}
inline bool in_files(const AnyGeneration& g) {
  return std::visit([](const auto& x) { return x.in_files(); }, g);
}

// Where a sweep stands between two steps: the state a checkpoint saves (checkpoint.hpp
// and frontier_job.hpp hand it on without looking in).
struct FrontierState {
  int next_step = 0;  // steps done
  AnyGeneration classes;
};

// With several ranks: the same on every rank; classes, expanded, spilled and exchanged are
// totals over the ranks, peak_bytes the largest rank's.
struct FrontierResult {
  bool complete = false;
  StopReason stop_reason = StopReason::none;  // time_limit, signal or memory when stopped
  BigCount count;                             // cycles (closed) or paths (open); when complete
  int steps = 0;                              // squares of the board
  int steps_done = 0;
  std::uint64_t peak_classes = 0;
  std::uint64_t expanded = 0;    // classes expanded this session, over all steps
  std::uint64_t peak_bytes = 0;  // class memory at its highest
  StepBytes widest_step;         // this rank's step that held the most, by what held it
  // Bytes of the generation with the most classes between steps, in memory or in files
  // (compact_classes.hpp; with its index): peak_rest_bytes / peak_classes is a class at rest.
  std::uint64_t peak_rest_bytes = 0;
  int limbs = 1;                        // 64-bit limbs the counts needed
  std::uint64_t spilled_bytes = 0;      // written to spill files (classes and successors)
  int ranges_redone = 0;                // ranges of a step that did not fit and were split
  StepsByStrategy steps_by_strategy{};  // steps finished, by how each was built
  int max_passes = 1;                   // most passes one step needed (more than 1: it spilled)
  std::uint64_t exchanged_bytes = 0;    // sent between ranks (several ranks only)
  double seconds = 0;
  double steps_seconds = 0;             // of those, until the last step done ended
  std::vector<std::uint64_t> classes;   // live classes after each step done this session
  std::optional<FrontierState> paused;  // the state at options.until_step, when it got there
  // When stopped (time limit, signal, memory): the state after the last step done, to keep
  // (FrontierJournal::keep); the step it stopped in is redone from there.
  std::optional<FrontierState> stopped_at;
  SweepOutlook outlook;   // when stopped: what the rest of the sweep holds
  ShorterCounts shorter;  // options.shorter's boards, by their index there
};

// Counts the Hamiltonian cycles (closed) or paths (open; with one end pinned when asked)
// of the board's knight graph by the frontier DP, on options.threads threads. Counts widen
// from 64 bits as needed (a step whose counts overflow is redone wider); past 1024 bits it
// throws CountTooWide. Stops cleanly on the stop control (time limit, signals,
// checked about every few thousand classes) and when the classes would exceed the memory
// limit; a stopped result has no count. `resume` continues a saved sweep.
FrontierResult run_frontier(const Sweep& sweep, const FrontierTarget& target,
                            const FrontierOptions& options, StopControl& stop,
                            std::optional<FrontierState> resume = std::nullopt);

}  // namespace knightstour
