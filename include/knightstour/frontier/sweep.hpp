#pragma once

#include <cstdint>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// Boards whose shorter side is at most this wide can be counted by the frontier method: a
// class of a nine-wide sweep still packs into 64 bits (frontier_class.hpp).
inline constexpr int kMaxFrontierWidth = 9;

// How the sweep lies on the board: its "across" direction is the board's shorter side (W
// squares, at most 9) and it advances along the longer side (L squares), one square at a
// time. Sweep vertex k sits at (across u = k mod W, along v = k div W). The board's
// symmetries give other sweeps of the same board (mirrored across or along, or turned on
// a square board); a pinned start is counted fastest in the sweep that reaches it early.
struct Orientation {
  bool flip_across = false;
  bool flip_along = false;
  bool turn = false;  // square boards only: sweep along ranks instead of files
  // Across the longer side instead (never faster; lets tests run a wide sweep on a small
  // board, e.g. 3x9 nine wide).
  bool across_longer = false;
  friend bool operator==(const Orientation&, const Orientation&) = default;
};

class Sweep {
 public:
  // Throws UsageError when the side across exceeds kMaxFrontierWidth or the board is empty.
  Sweep(BoardShape shape, Orientation orientation = {});

  const BoardShape& shape() const { return shape_; }
  const Orientation& orientation() const { return orientation_; }
  int width() const { return width_; }    // W: squares across
  int length() const { return length_; }  // L: squares along
  int size() const { return width_ * length_; }

  // The board's square index (r * cols + c) of sweep vertex k, and the inverse.
  std::int64_t square(int k) const;
  int vertex(std::int64_t square) const;
  bool adjacent(int a, int b) const;
  // Colour of a sweep vertex: 0 is the colour of vertex 0, a corner, so on a board with an
  // odd number of squares colour 0 is the majority.
  int colour(int k) const { return (k % width_ + k / width_) & 1; }
  // Sweep vertices adjacent to k, ascending.
  std::vector<int> neighbours(int k) const;

 private:
  BoardShape shape_;
  Orientation orientation_;
  int width_, length_;
  bool along_columns_;  // the sweep advances along the board's columns (files)
};

// The orientations of a board's sweep: 4 (8 for a square board); the identity first.
std::vector<Orientation> sweep_orientations(BoardShape shape);

}  // namespace knightstour
