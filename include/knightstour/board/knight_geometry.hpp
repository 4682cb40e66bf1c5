#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>

#include "knightstour/board/board.hpp"

namespace knightstour {

// The knight's move, defined here once: a step of (rows, columns) with |dr| * |dc| == 2.
struct KnightStep {
  int dr, dc;
};
// The eight steps, in the order every move list is built in (rows before columns, ascending).
inline constexpr std::array<KnightStep, 8> kKnightSteps = {
    {{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}}};
constexpr bool is_knight_step(int dr, int dc) {
  return (dr < 0 ? -dr : dr) * (dc < 0 ? -dc : dc) == 2;
}

// Knight moves on a board of any size (find works far beyond 64 squares, where bitboards end).
// Square index s = r * cols + c.
class KnightGeometry {
 public:
  explicit KnightGeometry(const BoardShape& shape) : rows_(shape.rows), cols_(shape.cols) {}

  int row(std::uint32_t v) const { return static_cast<int>(v / static_cast<std::uint32_t>(cols_)); }
  int col(std::uint32_t v) const { return static_cast<int>(v % static_cast<std::uint32_t>(cols_)); }

  // Writes the squares a knight move from v (up to 8) and returns how many.
  int neighbours(std::uint32_t v, std::uint32_t* out) const {
    const int r = row(v), c = col(v);
    int k = 0;
    for (const KnightStep step : kKnightSteps) {
      const int rr = r + step.dr, cc = c + step.dc;
      if (rr >= 0 && rr < rows_ && cc >= 0 && cc < cols_) {
        out[k++] = static_cast<std::uint32_t>(rr) * static_cast<std::uint32_t>(cols_) +
                   static_cast<std::uint32_t>(cc);
      }
    }
    return k;
  }

  bool adjacent(std::uint32_t a, std::uint32_t b) const {
    return is_knight_step(row(a) - row(b), col(a) - col(b));
  }

  // Squared distance between square centres.
  double distance2(std::uint32_t a, std::uint32_t b) const {
    const double dr = row(a) - row(b), dc = col(a) - col(b);
    return dr * dr + dc * dc;
  }

  // Squared distance from the board's centre.
  double from_centre2(std::uint32_t v) const {
    const double dr = row(v) - (rows_ - 1) / 2.0, dc = col(v) - (cols_ - 1) / 2.0;
    return dr * dr + dc * dc;
  }

 private:
  int rows_, cols_;
};

}  // namespace knightstour
