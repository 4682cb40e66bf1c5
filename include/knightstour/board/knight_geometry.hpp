#pragma once

#include <cstdint>
#include <cstdlib>

#include "knightstour/board/board.hpp"

namespace knightstour {

// Knight moves on a board of any size (find works far beyond 64 squares, where bitboards end).
// Square index s = r * cols + c.
class KnightGeometry {
 public:
  explicit KnightGeometry(const BoardShape& shape) : rows_(shape.rows), cols_(shape.cols) {}

  int row(std::uint32_t v) const { return static_cast<int>(v / static_cast<std::uint32_t>(cols_)); }
  int col(std::uint32_t v) const { return static_cast<int>(v % static_cast<std::uint32_t>(cols_)); }

  // Writes the squares a knight move from v (up to 8) and returns how many.
  int neighbours(std::uint32_t v, std::uint32_t* out) const {
    static constexpr int kDr[8] = {-2, -2, -1, -1, 1, 1, 2, 2};
    static constexpr int kDc[8] = {-1, 1, -2, 2, -2, 2, -1, 1};
    const int r = row(v), c = col(v);
    int k = 0;
    for (int i = 0; i < 8; ++i) {
      const int rr = r + kDr[i], cc = c + kDc[i];
      if (rr >= 0 && rr < rows_ && cc >= 0 && cc < cols_) {
        out[k++] = static_cast<std::uint32_t>(rr) * static_cast<std::uint32_t>(cols_) +
                   static_cast<std::uint32_t>(cc);
      }
    }
    return k;
  }

  bool adjacent(std::uint32_t a, std::uint32_t b) const {
    const int dr = std::abs(row(a) - row(b)), dc = std::abs(col(a) - col(b));
    return dr * dc == 2;
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
