#include "knightstour/board/tour_check.hpp"

#include <algorithm>
#include <cstdlib>

#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/board/square.hpp"

namespace knightstour {

bool knight_move(const BoardShape& shape, std::uint32_t a, std::uint32_t b) {
  return KnightGeometry(shape).adjacent(a, b);
}

TourChecker::TourChecker(BoardShape shape, bool closed)
    : shape_(shape), closed_(closed), stamp_(static_cast<std::size_t>(shape.squares()), 0) {}

std::string TourChecker::name(std::uint32_t square) const {
  return square_name(static_cast<int>(square / static_cast<std::uint32_t>(shape_.cols)),
                     static_cast<int>(square % static_cast<std::uint32_t>(shape_.cols)));
}

std::optional<std::string> TourChecker::problem(const std::uint32_t* tour) {
  if (++generation_ == 0) {  // wrapped: forget every old stamp
    std::fill(stamp_.begin(), stamp_.end(), 0);
    generation_ = 1;
  }
  const auto n = static_cast<std::size_t>(shape_.squares());
  for (std::size_t i = 0; i < n; ++i) {
    const auto s = tour[i];
    if (s >= n) {
      return "square index " + std::to_string(s) + " at position " + std::to_string(i) +
             " is off the " + shape_.name() + " board";
    }
    if (stamp_[s] == generation_)
      return name(s) + " is visited twice (again at position " + std::to_string(i) + ")";
    stamp_[s] = generation_;
    if (i > 0 && !knight_move(shape_, tour[i - 1], s)) {
      return "move " + std::to_string(i) + ": " + name(tour[i - 1]) + " to " + name(s) +
             " is not a knight move";
    }
  }
  if (closed_ && n > 1 && !knight_move(shape_, tour[n - 1], tour[0])) {
    return "not closed: the last square " + name(tour[n - 1]) +
           " is not a knight move from the first, " + name(tour[0]);
  }
  return std::nullopt;
}

}  // namespace knightstour
