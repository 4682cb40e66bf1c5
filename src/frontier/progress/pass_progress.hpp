#pragma once

#include <atomic>
#include <cstdint>

namespace knightstour {

// How far a pass back over a sweep (grid/backward_pass.hpp) is, for progress lines: written
// by the pass after each generation, read by the job's progress line.
struct BackwardProgress {
  std::atomic<int> steps_total{0};              // generations, set at the start
  std::atomic<int> steps_done{0};               // generations done, counting back
  std::atomic<std::uint64_t> classes_done{0};   // their classes
  std::atomic<std::uint64_t> classes_total{0};  // of all generations, set at the start
};

}  // namespace knightstour
