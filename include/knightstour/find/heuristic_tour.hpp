#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"

namespace knightstour {

struct HeuristicOptions {
  bool closed = false;
  std::uint64_t seed = 0;
  int attempts = 8;                         // fresh starts before giving up
  std::uint64_t max_rotations = 2'000'000;  // repair budget per attempt
  StopControl* stop = nullptr;              // polled now and then (time limit, signals)
};

struct HeuristicResult {
  bool found = false;
  std::vector<std::uint32_t> tour;
  int attempts = 0;             // attempts made (1 = the first one worked)
  std::uint64_t rotations = 0;  // repair steps in the successful attempt
  std::uint64_t dead_ends = 0;  // times Warnsdorff's rule got stuck and needed repair
  std::string how;              // one line for the user
};

// One tour on a board of any size that fits in memory, from `start`.
//
// Warnsdorff's rule builds the path: always move to the free square with the fewest free
// neighbours; ties go to the square farthest from the centre (Roth) on the first attempt and
// are broken at random (seeded) on later ones. When the rule gets stuck with squares left, or
// when a closed tour is wanted and the path's end is not next to its start, the path is
// repaired with Posa rotations: if the end E is next to the path's square P[i], reversing
// P[i+1..E] keeps a Hamiltonian path of the same squares and makes P[i+1] the new end; the
// rotation is chosen to bring the end next to a free square (then the rule extends the path
// again) or next to the start (then the tour closes). The start never moves.
// Deterministic for a given seed.
HeuristicResult heuristic_tour(const BoardShape& shape, std::uint32_t start,
                               const HeuristicOptions& options);

}  // namespace knightstour
