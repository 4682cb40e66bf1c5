#include "knightstour/board/board.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"

namespace knightstour {
namespace {

TEST(BoardShape, ParsesSideAndRectangle) {
  EXPECT_EQ(parse_board_shape("6"), (BoardShape{6, 6}));
  EXPECT_EQ(parse_board_shape("3x4"), (BoardShape{3, 4}));
  EXPECT_EQ(parse_board_shape("4X3"), (BoardShape{4, 3}));
  EXPECT_EQ(parse_board_shape("1000x1000").squares(), 1'000'000);
}

TEST(BoardShape, RejectsMalformedAndEmpty) {
  for (const char* bad : {"", "x", "6x", "x6", "6x6x6", "-3x4", "3x-4", "a", "6.0", "0x5", "5x0",
                          "0", "3 x4", "99999999999x2"}) {
    EXPECT_THROW(parse_board_shape(bad), UsageError) << bad;
  }
}

TEST(Board, RejectsMoreThan64Squares) {
  EXPECT_NO_THROW(Board(8, 8));
  EXPECT_NO_THROW(Board(4, 16));
  EXPECT_THROW(Board(9, 8), UsageError);
  EXPECT_THROW(Board(5, 13), UsageError);
  EXPECT_THROW(parse_board("65x1"), UsageError);
}

TEST(Board, KnightGraphDegrees) {
  const Board b(8, 8);
  EXPECT_EQ(popcount(b.neighbours(b.index(0, 0))), 2);
  EXPECT_EQ(popcount(b.neighbours(b.index(0, 1))), 3);
  EXPECT_EQ(popcount(b.neighbours(b.index(1, 1))), 4);
  EXPECT_EQ(popcount(b.neighbours(b.index(3, 3))), 8);
  int edges = 0;
  for (int s = 0; s < b.squares(); ++s) edges += popcount(b.neighbours(s));
  EXPECT_EQ(edges / 2, 168);  // the 8x8 knight graph has 168 edges
}

TEST(Board, NeighboursAreSymmetricAndChangeColour) {
  const Board b(5, 7);
  for (int s = 0; s < b.squares(); ++s) {
    for_each_square(b.neighbours(s), [&](int t) {
      EXPECT_TRUE(b.adjacent(t, s));
      EXPECT_NE(b.colour(s), b.colour(t));
    });
  }
}

TEST(Board, ThreeByThreeCentreIsIsolated) {
  const Board b(3, 3);
  EXPECT_EQ(b.neighbours(b.index(1, 1)), 0u);
}

}  // namespace
}  // namespace knightstour
