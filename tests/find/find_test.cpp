#include "knightstour/find/find.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/board/tour_check.hpp"
#include "knightstour/find/tour_theory.hpp"
#include "knightstour/search/kernel.hpp"

namespace knightstour {
namespace {

// Ground truth for boards up to 64 squares: does the bitboard kernel find any tour?
struct FirstTour {
  static constexpr bool kNeedsPath = false;
  std::uint64_t n = 0;
  void tour(int, const std::uint8_t*) {}
  void tours(int, std::uint64_t k) { n += k; }
};
struct StopAtFirst {
  const FirstTour& v;
  bool operator()(std::uint64_t) const { return v.n > 0; }
};

bool has_tour(const Board& b, int start, bool closed) {
  const std::uint8_t root[1] = {static_cast<std::uint8_t>(start)};
  const auto state = make_state(b, root, closed);
  if (!state) return false;
  FirstTour v;
  StopAtFirst poll{v};
  PrunedKernel<FirstTour, StopAtFirst> k(b, {closed, 256}, v, poll);
  k.run(*state, root, 1);
  return v.n > 0;
}

FindRequest request(BoardShape shape, std::uint32_t start, bool closed, std::uint64_t seed = 0) {
  FindRequest q;
  q.shape = shape;
  q.start = start;
  q.closed = closed;
  q.seed = seed;
  return q;
}

void expect_valid(const FindResult& r, const FindRequest& q) {
  ASSERT_EQ(r.outcome, FindResult::Outcome::found) << r.how;
  TourChecker checker(q.shape, q.closed);
  EXPECT_FALSE(checker.problem(r.tour).has_value());
  EXPECT_EQ(r.tour.front(), q.start);
}

TEST(TourTheory, KnownImpossibleBoards) {
  for (auto shape : {BoardShape{2, 2}, BoardShape{3, 3}, BoardShape{4, 4}, BoardShape{3, 5},
                     BoardShape{3, 6}, BoardShape{2, 8}, BoardShape{1, 5}, BoardShape{6, 3}}) {
    EXPECT_TRUE(no_tour_reason(shape, 0, false).has_value()) << shape.name();
  }
  for (auto shape :
       {BoardShape{5, 5}, BoardShape{7, 9}, BoardShape{4, 8}, BoardShape{3, 4}, BoardShape{3, 6},
        BoardShape{3, 8}, BoardShape{6, 4}, BoardShape{2, 10}, BoardShape{1, 1}}) {
    EXPECT_TRUE(no_tour_reason(shape, std::nullopt, true).has_value()) << shape.name();
  }
  for (auto shape : {BoardShape{6, 6}, BoardShape{3, 10}, BoardShape{5, 6}, BoardShape{8, 8},
                     BoardShape{3, 12}}) {
    EXPECT_FALSE(no_tour_reason(shape, std::nullopt, true).has_value()) << shape.name();
  }
  EXPECT_TRUE(no_tour_reason({5, 5}, 1, false).has_value());  // b1: minority colour
  EXPECT_TRUE(no_tour_reason({4, 9}, 9, false).has_value());  // a2: an inner line of 4x9
  EXPECT_TRUE(no_tour_reason({9, 4}, 1, false).has_value());  // b1 on 9x4: inner file
  EXPECT_FALSE(no_tour_reason({4, 9}, 4, false).has_value());
}

// The theorems never rule out a tour that exists (checked exhaustively where that is quick).
TEST(TourTheory, AgreesWithExhaustiveSearchOnSmallBoards) {
  for (int r = 1; r <= 8; ++r) {
    for (int c = 1; r * c <= 40; ++c) {
      const Board b(r, c);
      for (bool closed : {false, true}) {
        for (int s = 0; s < b.squares(); ++s) {
          if (no_tour_reason(b.shape(), s, closed)) {
            EXPECT_FALSE(has_tour(b, s, closed))
                << b.name() << " " << square_name(b, s) << (closed ? " closed" : "");
          }
        }
      }
    }
  }
}

// From every start of every board up to 64 squares, open and closed: a tour is found exactly
// when one exists, and "impossible" comes only when none does.
TEST(Find, EveryStartOfEveryBoardUpTo64Squares) {
  int found = 0, impossible = 0;
  for (int r = 1; r <= 64; ++r) {
    for (int c = 1; r * c <= 64; ++c) {
      const Board b(r, c);
      for (bool closed : {false, true}) {
        for (int s = 0; s < b.squares(); ++s) {
          const auto q = request(b.shape(), static_cast<std::uint32_t>(s), closed);
          const auto result = find_tour(q);
          SCOPED_TRACE(b.name() + " from " + square_name(b, s) +
                       (closed ? " closed: " : " open: ") + result.how);
          ASSERT_NE(result.outcome, FindResult::Outcome::stopped);
          if (result.outcome == FindResult::Outcome::found) {
            expect_valid(result, q);
            ++found;
          } else {
            ++impossible;
            // The theorems were checked above; search verdicts are checked here.
            if (!no_tour_reason(b.shape(), s, closed)) {
              EXPECT_FALSE(has_tour(b, s, closed));
            }
          }
        }
      }
    }
  }
  // 4,183 (board, start, mode) triples have a tour; the rest are proved impossible.
  EXPECT_EQ(found, 4183);
  EXPECT_GT(impossible, 4000);
}

TEST(Find, SmallNoTourStartsAreProvedBySearch) {
  const auto r = find_tour(request({3, 8}, 10, false));  // c2
  EXPECT_EQ(r.outcome, FindResult::Outcome::impossible);
  EXPECT_NE(r.how.find("exhaustive search"), std::string::npos);
  EXPECT_EQ(find_tour(request({3, 7}, 10, false)).outcome, FindResult::Outcome::impossible);  // d2
}

TEST(Find, LargeOpenToursInSeconds) {
  for (int n : {100, 1000}) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto q = request({n, n}, 0, false);
    const auto r = find_tour(q);
    expect_valid(r, q);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0)
        << n;
  }
  const auto q = request({333, 500}, 333 * 250 + 17, false);
  expect_valid(find_tour(q), q);
}

TEST(Find, ClosedToursOnLargeBoards) {
  for (auto shape :
       {BoardShape{50, 50}, BoardShape{100, 100}, BoardShape{200, 200}, BoardShape{150, 201},
        BoardShape{3, 100}, BoardShape{5, 120}, BoardShape{400, 400}}) {
    const auto q = request(shape, static_cast<std::uint32_t>(shape.squares() / 2 + 3), true, 7);
    SCOPED_TRACE(shape.name());
    expect_valid(find_tour(q), q);
  }
}

TEST(Find, SameSeedSameTour) {
  const auto a = find_tour(request({30, 31}, 5, true, 42));
  const auto b = find_tour(request({30, 31}, 5, true, 42));
  ASSERT_EQ(a.outcome, FindResult::Outcome::found);
  EXPECT_EQ(a.tour, b.tour);
}

TEST(Find, TextbookBacktracking) {
  FindRequest q = request({5, 5}, 0, false);
  q.method = FindMethod::backtrack;
  auto r = find_tour(q);
  expect_valid(r, q);
  EXPECT_GT(r.work, 100u);
  q.order = parse_move_order("ccw");
  const auto ccw = find_tour(q);
  expect_valid(ccw, q);
  EXPECT_NE(ccw.work, r.work);  // the move order changes the effort
  q.shape = {6, 6};
  q.closed = true;
  expect_valid(find_tour(q), q);
  q.shape = {8, 8};
  q.closed = false;
  q.max_nodes = 1000;
  EXPECT_EQ(find_tour(q).outcome, FindResult::Outcome::stopped);
  q.shape = {3, 8};
  q.start = 10;
  q.max_nodes = 0;
  EXPECT_EQ(find_tour(q).outcome, FindResult::Outcome::impossible);
}

TEST(Find, MoveOrders) {
  EXPECT_EQ(parse_move_order("cw").steps[0], (std::array<int, 2>{2, 1}));
  EXPECT_EQ(parse_move_order("2:1,1:2,-1:2,-2:1,-2:-1,-1:-2,1:-2,2:-1").steps[7],
            (std::array<int, 2>{2, -1}));
  for (const char* bad :
       {"", "zigzag", "2:1,1:2", "2:1,1:2,-1:2,-2:1,-2:-1,-1:-2,1:-2,2:1",
        "2:2,1:2,-1:2,-2:1,-2:-1,-1:-2,1:-2,2:-1", "2:1,1:2,-1:2,-2:1,-2:-1,-1:-2,1:-2,2:-1,3:3"}) {
    EXPECT_THROW(parse_move_order(bad), UsageError) << bad;
  }
}

}  // namespace
}  // namespace knightstour

namespace knightstour {
namespace {

// A request find_tour cannot take is refused before any search, in words that name it.
TEST(FindCheck, ABoardPastTheLimitOrAStartOffItIsRefused) {
  FindRequest q;
  q.shape = BoardShape{8, 8};
  EXPECT_TRUE(check(q).empty());
  q.start = 64;
  EXPECT_EQ(check(q), std::vector<std::string>{"the start square is not on the board 8x8"});
  q.shape = BoardShape{20000, 20000};
  q.start = 0;
  EXPECT_EQ(check(q),
            std::vector<std::string>{"board 20000x20000 has more than 100,000,000 squares"});
  EXPECT_THROW(find_tour(q), UsageError);
}

}  // namespace
}  // namespace knightstour
