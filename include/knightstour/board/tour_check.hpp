#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// Checks that a sequence of square indices is a knight's tour of a board of any size:
// every square exactly once, each step a knight move, and (closed) the last square a knight
// move from the first. Reuses its scratch memory between calls.
class TourChecker {
 public:
  TourChecker(BoardShape shape, bool closed);

  // Nothing when `tour` (shape.squares() entries) is a tour; else the first problem, e.g.
  // "move 12: c3 to d4 is not a knight move".
  std::optional<std::string> problem(const std::uint32_t* tour);
  std::optional<std::string> problem(const std::vector<std::uint32_t>& tour) {
    return problem(tour.data());
  }

 private:
  std::string name(std::uint32_t square) const;
  BoardShape shape_;
  bool closed_;
  std::vector<std::uint32_t> stamp_;  // stamp_[s] == generation_ when s was seen in this tour
  std::uint32_t generation_ = 0;
};

bool knight_move(const BoardShape& shape, std::uint32_t a, std::uint32_t b);

}  // namespace knightstour
