#include <gtest/gtest.h>

#include <set>

#include "knightstour/board/square.hpp"
#include "support/count_helpers.hpp"
#include "support/reference_search.hpp"

namespace knightstour {
namespace {

using test::kernel_count;

std::uint64_t from(const char* board, const char* start, bool closed = false) {
  const Board b = parse_board(board);
  return kernel_count(b, {static_cast<std::uint8_t>(parse_square(b, start))},
                      {Algorithm::pruned, closed})
      .tours;
}

TEST(Kernel, KnownCountsFiveByFive) {
  EXPECT_EQ(from("5x5", "a1"), 304u);
  EXPECT_EQ(from("5x5", "e5"), 304u);
  EXPECT_EQ(from("5x5", "c3"), 64u);
  EXPECT_EQ(from("5x5", "c1"), 56u);
  EXPECT_EQ(from("5x5", "b2"), 56u);
  EXPECT_EQ(from("5x5", "b1"), 0u);
}

TEST(Kernel, KnownCountsSixBySixFromCorner) {
  EXPECT_EQ(from("6x6", "a1"), 524'486u);
  EXPECT_EQ(from("6x6", "a1", true), 19'724u);  // = 2 x 9,862 cycles
}

TEST(Kernel, ClosedCyclesOnRectangles) {
  // A Hamiltonian cycle passes every square, so from any start it is counted twice.
  EXPECT_EQ(from("3x10", "a1", true), 2u * 16);
  EXPECT_EQ(from("3x10", "e2", true), 2u * 16);
  EXPECT_EQ(from("5x6", "a1", true), 2u * 8);
  EXPECT_EQ(from("5x6", "c3", true), 2u * 8);
  EXPECT_EQ(from("6x6", "c3", true), 19'724u);
}

TEST(Kernel, PrefixCountsAreHalvesForTheCorner) {
  const Board b(6, 6);
  const auto b3 = kernel_count(b, {0, 13}, {}).tours;  // a1,b3
  const auto c2 = kernel_count(b, {0, 8}, {}).tours;   // a1,c2
  EXPECT_EQ(b3, 262'243u);
  EXPECT_EQ(c2, 262'243u);
}

// Pruned, naive and an independent plain search agree on every start square, tour by
// last square, open and closed.
void expect_agreement(int rows, int cols) {
  const Board b(rows, cols);
  for (int s = 0; s < b.squares(); ++s) {
    for (bool closed : {false, true}) {
      SCOPED_TRACE(b.name() + " from " + square_name(b, s) + (closed ? " closed" : " open"));
      const std::vector<std::uint8_t> root{static_cast<std::uint8_t>(s)};
      const auto pruned = kernel_count(b, root, {Algorithm::pruned, closed});
      const auto naive = kernel_count(b, root, {Algorithm::naive, closed});
      const auto ref = test::reference_count(rows, cols, b.row_of(s), b.col_of(s), closed);
      EXPECT_EQ(pruned.tours, ref.tours);
      EXPECT_EQ(naive.tours, ref.tours);
      EXPECT_EQ(pruned.by_end, ref.by_end);
      EXPECT_EQ(naive.by_end, ref.by_end);
      EXPECT_LE(pruned.nodes, naive.nodes);
    }
  }
}

TEST(Kernel, PrunedEqualsNaiveEqualsReference5x5) { expect_agreement(5, 5); }
TEST(Kernel, PrunedEqualsNaiveEqualsReference3x4) { expect_agreement(3, 4); }
TEST(Kernel, PrunedEqualsNaiveEqualsReference4x3) { expect_agreement(4, 3); }
TEST(Kernel, PrunedEqualsNaiveEqualsReference4x5) { expect_agreement(4, 5); }
TEST(Kernel, PrunedEqualsNaiveEqualsReference3x8) { expect_agreement(3, 8); }
TEST(Kernel, PrunedEqualsNaiveEqualsReference4x6) { expect_agreement(4, 6); }
TEST(Kernel, PrunedEqualsNaiveEqualsReference3x7) { expect_agreement(3, 7); }
TEST(Kernel, PrunedEqualsNaiveEqualsReferenceTinyBoards) {
  for (auto [r, c] : {std::pair{1, 1}, {1, 2}, {2, 2}, {2, 5}, {3, 3}, {4, 4}, {1, 5}}) {
    expect_agreement(r, c);
  }
}

TEST(Kernel, PruningCutsTheTree) {
  const Board b(5, 5);
  const auto pruned = kernel_count(b, {0}, {Algorithm::pruned, false});
  const auto naive = kernel_count(b, {0}, {Algorithm::naive, false});
  EXPECT_EQ(pruned.tours, naive.tours);
  EXPECT_LT(pruned.nodes * 100, naive.nodes);
}

TEST(Kernel, EveryEnumeratedPathIsADistinctTour) {
  for (const char* name : {"5x5", "3x4", "4x5", "5x6"}) {
    const Board b = parse_board(name);
    std::set<std::string> all;  // (a set of vectors trips a GCC 12 false warning)
    std::uint64_t counted = 0;
    for (int s = 0; s < b.squares(); ++s) {
      const std::vector<std::uint8_t> root{static_cast<std::uint8_t>(s)};
      for (const auto& t : test::kernel_tours(b, root, false)) {
        ASSERT_TRUE(test::is_tour(b, t)) << name;
        EXPECT_EQ(t.front(), s);
        all.insert(std::string(t.begin(), t.end()));
      }
      counted += kernel_count(b, root, {}).tours;
    }
    EXPECT_EQ(all.size(), counted) << name;
  }
}

TEST(Kernel, ClosedToursEndNextToTheStart) {
  const Board b(6, 6);
  const auto tours = test::kernel_tours(b, {0, 13, 26}, true);
  EXPECT_FALSE(tours.empty());
  for (const auto& t : tours) {
    ASSERT_TRUE(test::is_tour(b, t));
    EXPECT_TRUE(b.adjacent(t.back(), 0));
  }
}

TEST(Kernel, AWholeTourAsPrefixCountsOnce) {
  const Board b(3, 4);
  const auto tours = test::kernel_tours(b, {0}, false);
  ASSERT_FALSE(tours.empty());
  EXPECT_EQ(kernel_count(b, tours.front(), {}).tours, 1u);
  EXPECT_EQ(kernel_count(b, tours.front(), {Algorithm::naive, false}).tours, 1u);
}

}  // namespace
}  // namespace knightstour
