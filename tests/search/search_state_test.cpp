#include "knightstour/search/search_state.hpp"

#include <gtest/gtest.h>

#include <random>

namespace knightstour {
namespace {

TEST(DegreePlanes, DecrementIsPerSquare) {
  DegreePlanes d;
  // squares 0..15 hold counters 0..15
  for (int s = 0; s < 16; ++s) {
    for (int k = 0; k < 4; ++k) {
      if ((s >> k) & 1) (k == 0 ? d.p0 : k == 1 ? d.p1 : k == 2 ? d.p2 : d.p3) |= bit(s);
    }
  }
  d.decrement(0xFFFE);  // every square but 0
  for (int s = 1; s < 16; ++s) EXPECT_EQ(d.get(s), s - 1);
  EXPECT_EQ(d.zero() & 0xFFFF, bit(0) | bit(1));
  EXPECT_EQ(d.one() & 0xFFFF, bit(2));
}

bool same(const SearchState& a, const SearchState& b) {
  bool degrees_match = true;
  for_each_square(a.free, [&](int s) { degrees_match &= a.degree.get(s) == b.degree.get(s); });
  return degrees_match && a.free == b.free && a.end == b.end && a.head == b.head &&
         a.remaining == b.remaining;
}

// The kernel updates its state incrementally; make_state recomputes it from the path.
// Along random walks both must agree, and make_state must never call a live node dead.
void check_random_walks(const Board& board, bool closed, int walks) {
  std::mt19937 rng(1234);
  const auto* nb = board.neighbour_table();
  for (int w = 0; w < walks; ++w) {
    std::vector<std::uint8_t> path{static_cast<std::uint8_t>(rng() % board.squares())};
    auto state = make_state(board, path, closed);
    while (state && state->remaining >= 2) {
      const MoveSet m = legal_moves(nb, *state);
      if (m.moves == 0) break;
      Bitboard pick = m.moves;
      for (auto k = rng() % popcount(m.moves); k > 0; --k) pick = without_lowest(pick);
      SearchState child;
      play(nb, *state, lowest(pick), m.critical, child);
      path.push_back(static_cast<std::uint8_t>(lowest(pick)));
      const auto fresh = make_state(board, path, closed);
      ASSERT_TRUE(fresh.has_value()) << "live child judged dead, walk " << w;
      ASSERT_TRUE(same(child, *fresh)) << "walk " << w << " depth " << path.size();
      state = child;
    }
  }
}

TEST(SearchState, IncrementalMatchesFromScratchOpen) {
  check_random_walks(Board(6, 6), false, 3000);
  check_random_walks(Board(5, 7), false, 3000);
  check_random_walks(Board(8, 8), false, 2000);
}

TEST(SearchState, IncrementalMatchesFromScratchClosed) {
  check_random_walks(Board(6, 6), true, 3000);
  check_random_walks(Board(8, 8), true, 2000);
}

TEST(SearchState, OddBoardMinorityColourStartIsDead) {
  const Board b(5, 5);
  const std::vector<std::uint8_t> b1{1};
  EXPECT_FALSE(make_state(b, b1, false).has_value());
  const std::vector<std::uint8_t> a1{0};
  EXPECT_TRUE(make_state(b, a1, false).has_value());
  EXPECT_FALSE(make_state(b, a1, true).has_value());  // no closed tour on an odd board
}

TEST(SearchState, IsolatedSquareKillsTheRoot) {
  const Board b(3, 3);
  const std::vector<std::uint8_t> a1{0};
  EXPECT_FALSE(make_state(b, a1, false).has_value());
}

TEST(SearchState, ClosedModeKeepsTheStartAsTheEnd) {
  const Board b(6, 6);
  const std::vector<std::uint8_t> a1{0};
  const auto s = make_state(b, a1, true);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->end, bit(0));
  EXPECT_EQ(s->remaining, 36);
}

}  // namespace
}  // namespace knightstour
