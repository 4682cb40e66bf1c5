#include "knightstour/frontier/sweep.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/knight_geometry.hpp"

namespace knightstour {

Sweep::Sweep(BoardShape shape, Orientation orientation) : shape_(shape), orientation_(orientation) {
  if (shape.rows < 1 || shape.cols < 1) throw UsageError("the board has no squares");
  // W = rows squares lie across when the sweep advances along the columns (files): the
  // shorter side lies across unless asked otherwise.
  along_columns_ = orientation.across_longer ? shape.rows >= shape.cols : shape.rows <= shape.cols;
  if (orientation.turn && shape.rows != shape.cols) {
    throw UsageError("only a square board can be swept both ways");
  }
  if (orientation.turn) along_columns_ = !along_columns_;
  width_ = along_columns_ ? shape.rows : shape.cols;
  length_ = along_columns_ ? shape.cols : shape.rows;
  if (width_ > kMaxFrontierWidth) {
    throw UsageError("the frontier method needs a board whose shorter side is at most " +
                     std::to_string(kMaxFrontierWidth) + "; " + shape.name() + " has " +
                     std::to_string(width_) + (orientation.across_longer ? " across" : ""));
  }
}

std::int64_t Sweep::square(int k) const {
  int u = k % width_, v = k / width_;
  if (orientation_.flip_across) u = width_ - 1 - u;
  if (orientation_.flip_along) v = length_ - 1 - v;
  const int row = along_columns_ ? u : v;
  const int col = along_columns_ ? v : u;
  return static_cast<std::int64_t>(row) * shape_.cols + col;
}

int Sweep::vertex(std::int64_t square) const {
  const int row = static_cast<int>(square / shape_.cols);
  const int col = static_cast<int>(square % shape_.cols);
  int u = along_columns_ ? row : col;
  int v = along_columns_ ? col : row;
  if (orientation_.flip_across) u = width_ - 1 - u;
  if (orientation_.flip_along) v = length_ - 1 - v;
  return v * width_ + u;
}

bool Sweep::adjacent(int a, int b) const {
  if (a < 0 || b < 0 || a >= size() || b >= size()) return false;
  return is_knight_step(a % width_ - b % width_, a / width_ - b / width_);
}

std::vector<int> Sweep::neighbours(int k) const {
  std::vector<int> out;
  for (int b = std::max(0, k - 2 * width_ - 1); b <= std::min(size() - 1, k + 2 * width_ + 1);
       ++b) {
    if (adjacent(k, b)) out.push_back(b);
  }
  return out;
}

std::vector<Orientation> sweep_orientations(BoardShape shape) {
  std::vector<Orientation> out;
  for (int turn = 0; turn < (shape.rows == shape.cols ? 2 : 1); ++turn) {
    for (int across = 0; across < 2; ++across) {
      for (int along = 0; along < 2; ++along) out.push_back({across == 1, along == 1, turn == 1});
    }
  }
  return out;
}

}  // namespace knightstour
