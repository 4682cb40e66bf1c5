#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// Which of the board's symmetries map one tour onto itself. Read forwards, none but the
// identity can: it would have to fix the start, then every square after it. Two weaker
// sameness remain, and this answers both for the counts of essentially different tours:
//  - walked backwards: g(path[i]) == path[n-1-i] for every i (at most one g does this,
//    since two would make their quotient fix the tour forwards);
//  - as a cycle (closed tours): g maps the cycle's edges onto its edges, re-rooted and in
//    either direction.
// Per tour, not per node: O(squares) for each of the at most 7 non-identity symmetries,
// most rejected on the first square.
class TourSymmetry {
 public:
  explicit TourSymmetry(const Board& board);

  int group_size() const { return static_cast<int>(others_.size()) + 1; }

  // Whether some symmetry maps the tour (board.squares() squares) onto its own reverse
  // (only the one-square tour of 1x1 needs the identity for that).
  bool reverse_symmetric(const std::uint8_t* path) const;

  // The symmetries, identity included, that map the closed tour's cycle onto itself.
  int cycle_stabilizer(const std::uint8_t* path) const;

 private:
  int squares_;
  std::vector<std::array<std::uint8_t, Board::kMaxSquares>> others_;  // distinct, not identity
};

}  // namespace knightstour
