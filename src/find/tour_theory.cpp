#include "knightstour/find/tour_theory.hpp"

#include <algorithm>

#include "knightstour/board/square.hpp"

namespace knightstour {

std::optional<std::string> no_tour_reason(const BoardShape& shape,
                                          std::optional<std::int64_t> start, bool closed) {
  const int m = std::min(shape.rows, shape.cols);
  const int n = std::max(shape.rows, shape.cols);
  const std::string board = shape.name();
  if (closed) {
    if (shape.squares() == 1) return "a 1x1 board has no knight move to close a tour";
    if (m % 2 == 1 && n % 2 == 1) {
      return board +
             " has an odd number of squares, and a closed tour alternates colours, so it has an "
             "even number";
    }
    if (m == 1 || m == 2 || m == 4) {
      return "Schwenk's theorem: no closed tour on a board whose short side is 1, 2 or 4";
    }
    if (m == 3 && (n == 4 || n == 6 || n == 8))
      return "Schwenk's theorem: no closed tour on 3x4, 3x6 or 3x8";
    return std::nullopt;
  }
  const bool exists =
      (m == 1 && n == 1) || (m == 3 && (n == 4 || n >= 7)) || (m == 4 && n >= 5) || m >= 5;
  if (!exists) {
    return "no open tour on " + board +
           " from any square (Conrad et al. 1994: an m x n board, m <= n, has one only when "
           "m = n = 1, m = 3 and n = 4 or n >= 7, m = 4 and n >= 5, or m >= 5)";
  }
  if (!start) return std::nullopt;
  const int r = static_cast<int>(*start / shape.cols);
  const int c = static_cast<int>(*start % shape.cols);
  const std::string from = square_name(r, c);
  if (shape.squares() % 2 == 1 && (r + c) % 2 == 1) {
    return board +
           " has an odd number of squares, so a tour starts on the majority colour (that of a1), "
           "and " +
           from + " is on the other colour";
  }
  if (m == 4) {
    const int line = shape.rows == 4 ? r : c;  // across the short side
    if (line == 1 || line == 2) {
      return "on a 4 x n board an open tour alternates between the two outer and the two inner "
             "lines (with a single "
             "inner-to-inner move), so it starts and ends on an outer line, and " +
             from + " is on an inner line";
    }
  }
  return std::nullopt;
}

}  // namespace knightstour
