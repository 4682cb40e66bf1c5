// Classes of start squares under the board's symmetries, and the orientation a pinned sweep
// takes.
#include "frontier/grid/start_squares.hpp"

#include <gtest/gtest.h>

#include <set>

namespace knightstour {
namespace {

TEST(StartSquares, ClassesCoverTheMajorityColourOnOddBoards) {
  // 5x5: 13 squares of the majority colour in 6 classes (corner, c1-type, b2-type, centre...).
  const auto classes = start_classes({5, 5});
  std::size_t covered = 0;
  for (const auto& c : classes) {
    covered += c.squares.size();
    for (auto sq : c.squares) EXPECT_EQ((sq / 5 + sq % 5) % 2, 0);
  }
  EXPECT_EQ(covered, 13u);
  EXPECT_EQ(start_classes({6, 6}).size(), 6u);  // the 36 squares up to the 8 symmetries
  EXPECT_EQ(start_classes({3, 4}).size(), 4u);  // corners, long edges, short edges, middle
}

// The maps are the board's symmetries: permutations, identity first, each keeping knight
// moves (8 on a square board, 4 on a rectangle).
TEST(StartSquares, SymmetryMapsArePermutationsKeepingKnightMoves) {
  for (const BoardShape shape : {BoardShape{5, 5}, BoardShape{3, 4}, BoardShape{6, 8}}) {
    const auto maps = board_symmetry_maps(shape);
    EXPECT_EQ(maps.size(), shape.rows == shape.cols ? 8u : 4u);
    for (std::int64_t s = 0; s < shape.squares(); ++s)
      EXPECT_EQ(maps[0][static_cast<std::size_t>(s)], s);
    for (const auto& m : maps) {
      EXPECT_EQ(std::set<std::int64_t>(m.begin(), m.end()).size(),
                static_cast<std::size_t>(shape.squares()));
      for (std::int64_t a = 0; a < shape.squares(); ++a) {
        for (std::int64_t b = 0; b < shape.squares(); ++b) {
          auto knight = [&](std::int64_t x, std::int64_t y) {
            const auto dr = x / shape.cols - y / shape.cols, dc = x % shape.cols - y % shape.cols;
            return dr * dr + dc * dc == 5;
          };
          EXPECT_EQ(knight(a, b),
                    knight(m[static_cast<std::size_t>(a)], m[static_cast<std::size_t>(b)]));
        }
      }
    }
  }
}

// A pinned end is cheapest early: the orientation brings it into the sweep's first column.
TEST(StartSquares, BestOrientationBringsThePinsEarly) {
  for (const BoardShape shape : {BoardShape{6, 6}, BoardShape{5, 8}}) {
    for (std::int64_t s = 0; s < shape.squares(); ++s) {
      const Sweep sweep(shape, best_orientation_for(shape, s));
      for (const Orientation& o : sweep_orientations(shape)) {
        EXPECT_LE(sweep.vertex(s), Sweep(shape, o).vertex(s));
      }
    }
  }
}

}  // namespace
}  // namespace knightstour
