#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"

namespace knightstour {

// The order in which the eight knight moves are tried, as (rank step, file step) pairs.
struct MoveOrder {
  std::string name;
  std::array<std::array<int, 2>, 8> steps;
};

// "cw" (clockwise from two ranks up, one file right: the order of most textbook programs),
// "ccw", or eight distinct knight steps "dr:dc,dr:dc,..." (rank, file). Throws UsageError.
MoveOrder parse_move_order(std::string_view text);

struct BacktrackResult {
  enum class Outcome { found, none, stopped } outcome = Outcome::stopped;
  std::vector<std::uint32_t> tour;
  std::uint64_t checks = 0;      // candidate moves examined (on the board? visited?)
  std::uint64_t placements = 0;  // squares placed on the path (including those undone)
};

// Plain backtracking as the classic programs do it: from each square try the eight moves in
// a fixed order, take the first legal one, undo when stuck. No pruning, no heuristics: the
// point is to show how many checks that takes (very sensitive to the move order) and to stop
// at the cap, as those programs stop at 100 million checks. Iterative, so any board size.
BacktrackResult textbook_backtrack(const BoardShape& shape, std::uint32_t start, bool closed,
                                   const MoveOrder& order, std::uint64_t max_checks,
                                   StopControl* stop = nullptr);

}  // namespace knightstour
