#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "knightstour/board/bitboard.hpp"

namespace knightstour {

// Rows x columns of any size (find works on boards far beyond 64 squares).
struct BoardShape {
  int rows = 0;
  int cols = 0;

  std::int64_t squares() const { return std::int64_t{rows} * cols; }
  std::string name() const;  // "6x6"
  friend bool operator==(const BoardShape&, const BoardShape&) = default;
};

// Largest side and area `find` accepts; enumeration is limited to 64 squares.
inline constexpr int kMaxSide = 100000;
inline constexpr std::int64_t kMaxFindSquares = 100'000'000;

// Parses "6" (6x6), "6x6" or "3x4" (rows x columns). Throws UsageError.
BoardShape parse_board_shape(std::string_view text);

// A board of at most 64 squares with its knight graph as bitboards.
// Square index s = r * cols + c, r = rank index from the bottom, c = file.
class Board {
 public:
  static constexpr int kMaxSquares = 64;

  // Throws UsageError when the board is empty or has more than 64 squares.
  explicit Board(BoardShape shape);
  Board(int rows, int cols) : Board(BoardShape{rows, cols}) {}

  int rows() const { return shape_.rows; }
  int cols() const { return shape_.cols; }
  int squares() const { return squares_; }
  const BoardShape& shape() const { return shape_; }
  std::string name() const { return shape_.name(); }

  Bitboard neighbours(int square) const { return neighbours_[static_cast<unsigned>(square)]; }
  const Bitboard* neighbour_table() const { return neighbours_.data(); }
  Bitboard all() const { return all_; }
  // Squares of the same colour as a1 (colour 0) or the other colour (colour 1).
  Bitboard colour_squares(int colour) const { return colour == 0 ? colour0_ : all_ & ~colour0_; }
  int colour(int square) const { return (square / cols() + square % cols()) & 1; }
  int row_of(int square) const { return square / cols(); }
  int col_of(int square) const { return square % cols(); }
  int index(int row, int col) const { return row * cols() + col; }
  bool adjacent(int a, int b) const { return (neighbours(a) & bit(b)) != 0; }

  friend bool operator==(const Board& a, const Board& b) { return a.shape_ == b.shape_; }

 private:
  BoardShape shape_;
  int squares_;
  Bitboard all_ = 0;
  Bitboard colour0_ = 0;
  std::array<Bitboard, kMaxSquares> neighbours_{};
};

// Parses a board for counting or enumeration (at most 64 squares). Throws UsageError.
Board parse_board(std::string_view text);

}  // namespace knightstour
