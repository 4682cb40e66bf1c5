#include "knightstour/board/tour_symmetry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "knightstour/board/symmetry.hpp"
#include "knightstour/count/symmetry_classes.hpp"
#include "knightstour/search/prefix_search.hpp"

namespace knightstour {
namespace {

using Tour = std::vector<std::uint8_t>;

struct Collect {
  static constexpr bool kNeedsPath = true;
  int squares;
  std::vector<Tour> out;
  void tour(int, const std::uint8_t* path) { out.emplace_back(path, path + squares); }
  void tours(int, std::uint64_t) {}
};

// Every tour from `start` (closed ones only if asked), by the library's kernel.
std::vector<Tour> tours_from(const Board& board, int start, bool closed) {
  Collect collect{board.squares(), {}};
  auto never = [](std::uint64_t) { return false; };
  const std::uint8_t prefix[1] = {static_cast<std::uint8_t>(start)};
  std::uint64_t nodes = 0;
  search_prefix(board, SearchMode{Algorithm::pruned, closed}, std::span(prefix, 1), 1 << 20,
                collect, never, nodes);
  return collect.out;
}

std::vector<Tour> all_tours(const Board& board) {
  std::vector<Tour> all;
  for (int s = 0; s < board.squares(); ++s) {
    auto t = tours_from(board, s, false);
    all.insert(all.end(), t.begin(), t.end());
  }
  return all;
}

TEST(TourSymmetry, SelfReverseToursOf3x4) {
  // OEIS A328340: 2 geometrically distinct symmetric open tours of 4x3, each drawn 4 ways
  // as a directed tour from one end (4 symmetries, read from either end: 8 / 2).
  const Board board(3, 4);
  const TourSymmetry symmetry(board);
  const auto tours = all_tours(board);
  ASSERT_EQ(tours.size(), 16u);
  int self_reverse = 0;
  for (const auto& t : tours) {
    const bool found = symmetry.reverse_symmetric(t.data());
    self_reverse += found ? 1 : 0;
    // The definition, literally.
    bool literal = false;
    for (const auto& g : board_symmetries(board)) {
      bool same = true;
      for (std::size_t i = 0; i < t.size(); ++i) same = same && g(t[i]) == t[t.size() - 1 - i];
      literal = literal || same;
    }
    EXPECT_EQ(found, literal);
  }
  EXPECT_EQ(self_reverse, 8);
}

TEST(TourSymmetry, CycleStabilizersOf6x6ClosedTours) {
  const Board board(6, 6);
  const TourSymmetry symmetry(board);
  const auto tours = tours_from(board, 0, true);
  ASSERT_EQ(tours.size(), 19724u);  // 9,862 cycles, both directions
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < tours.size(); ++k) {
    const Tour& t = tours[k];
    const int stabilizer = symmetry.cycle_stabilizer(t.data());
    sum += static_cast<std::uint64_t>(stabilizer);
    if (k % 97 != 0) continue;
    // The same cycle from another square and the other way round has the same symmetries.
    Tour turned(t.rbegin(), t.rend());
    std::rotate(turned.begin(), turned.begin() + 11, turned.end());
    EXPECT_EQ(symmetry.cycle_stabilizer(turned.data()), stabilizer);
  }
  // Jelliss: 1,245 geometrically distinct closed 6x6 tours (5 with quaternary symmetry, 17
  // binary, 1,223 asymmetric); Burnside: sum of stabilizers over cycles = 8 x 1,245.
  EXPECT_EQ(sum, 2u * 8u * 1245u);
  const auto classes = symmetry_classes(board, 0, {tours.size(), {}, 0, sum}, true);
  EXPECT_EQ(classes.cycles, 1245u);
}

TEST(SymmetryClasses, OneSquareBoardAndBoardsOneSquareWide) {
  EXPECT_EQ(distinct_symmetries(Board(1, 1)).size(), 1u);
  EXPECT_EQ(distinct_symmetries(Board(1, 5)).size(), 2u);
  EXPECT_EQ(distinct_symmetries(Board(3, 4)).size(), 4u);
  EXPECT_EQ(distinct_symmetries(Board(5, 5)).size(), 8u);
  const Board one(1, 1);
  const std::uint8_t path[1] = {0};
  EXPECT_TRUE(TourSymmetry(one).reverse_symmetric(path));
  const auto c = symmetry_classes(one, std::nullopt, {1, {1}, 1, 0}, false);
  EXPECT_EQ(c.tours, 1u);
  EXPECT_EQ(c.tours_with_reversal, 1u);
}

TEST(SymmetryClasses, ImpossibleCountsAreRefusedLoudly) {
  // 5x5 over all starts has 8 symmetries: 1,727 tours cannot be.
  EXPECT_THROW(symmetry_classes(Board(5, 5), std::nullopt, {1727, {}, 0, 0}, false),
               std::logic_error);
  // More self-reverse tours from a1 than tours ending on a corner cannot be.
  std::vector<std::uint64_t> by_end(25, 0);
  by_end[12] = 2;
  EXPECT_THROW(symmetry_classes(Board(5, 5), 0, {2, by_end, 2, 0}, false), std::logic_error);
}

}  // namespace
}  // namespace knightstour
