// Units of end pairs: the orbits they are, and the counts they add up to against the
// enumerator's start x end matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

std::string name(BoardShape s) { return std::to_string(s.rows) + "x" + std::to_string(s.cols); }

// Open tours over all starts, their grid counted by `grid`.
FrontierReport by_grid(BoardShape shape, GridMethod grid, int shard_index = 0,
                       int shard_count = 1) {
  StopControl stop({});
  FrontierOptions options;
  options.threads = 2;
  FrontierRequest request;
  request.shape = shape;
  request.grid = grid;
  request.shard.index = shard_index;
  request.shard.count = shard_count;
  FrontierReport r = count_by_frontier(request, options, stop);
  EXPECT_TRUE(r.complete);
  return r;
}

FrontierReport by_end_pairs(BoardShape shape, int shard_index = 0, int shard_count = 1) {
  return by_grid(shape, GridMethod::end_pairs, shard_index, shard_count);
}

// 8x8: the 136 classes of Chernov and Stertenbrink's count; every pair that can hold a tour
// (opposite colours) in exactly one unit, whose pairs are the images of its least one.
TEST(EndPairUnits, EightByEightHas136UnitsCoveringEveryPairOnce) {
  const auto units = end_pair_units({8, 8});
  ASSERT_EQ(units.size(), 136u);
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (const auto& u : units) {
    EXPECT_EQ(u.pairs.front(), std::make_pair(u.start, u.end));
    for (const auto& p : u.pairs) {
      EXPECT_TRUE(seen.insert(p).second);
      EXPECT_TRUE(seen.size() <= 64 * 32);
    }
    EXPECT_EQ(u.id, &u - units.data());
  }
  EXPECT_EQ(seen.size(), 64u * 32u);  // every square, every square of the other colour
}

// On an odd board both ends lie on the majority colour: 5x5 has 13 such squares.
TEST(EndPairUnits, OddBoardsPairOnlyMajoritySquares) {
  std::size_t pairs = 0;
  for (const auto& u : end_pair_units({5, 5})) {
    for (const auto& [s, t] : u.pairs) {
      EXPECT_EQ((s / 5 + s % 5) % 2, 0);
      EXPECT_EQ((t / 5 + t % 5) % 2, 0);
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 13u * 12u);
}

// One square: no pair of ends, and one open tour (the square alone), as every method counts.
TEST(EndPairUnits, OneSquareIsOneTour) {
  EXPECT_TRUE(end_pair_units({1, 1}).empty());
  const FrontierReport f = by_end_pairs({1, 1});
  EXPECT_EQ(f.tours, BigCount(1));
  EXPECT_EQ(f.tours_by_start, std::vector<BigCount>{BigCount(1)});
  EXPECT_EQ(f.tours_by_start_end, std::vector<BigCount>{BigCount(1)});
  EXPECT_EQ(f.closed_tours, BigCount{});
}

TEST(EndPairUnits, RefusesBoardsWithTooManyPairs) {
  EXPECT_THROW(end_pair_units({9, 200}), UsageError);
  StopControl stop({});
  FrontierRequest request;
  request.shape = {9, 200};
  request.grid = GridMethod::end_pairs;
  EXPECT_THROW(validate(request), UsageError);
}

TEST(EndPairUnits, ShardsTakeEveryUnitOnce) {
  for (int count : {1, 2, 7}) {
    for (int unit = 0; unit < 50; ++unit) {
      int owners = 0;
      for (int index = 0; index < count; ++index)
        owners += unit_in_shard(unit, Shard{index, count});
      EXPECT_EQ(owners, 1);
    }
  }
}

// A shard counts its units in an order spread over them: every one once, and the first few
// far apart (the first, the one half-way, a quarter, three quarters...).
TEST(EndPairUnits, AShardCountsItsUnitsSpreadOverThem) {
  EXPECT_EQ(spread_order(8, Shard{}), (std::vector<int>{0, 4, 2, 6, 1, 5, 3, 7}));
  for (const int count : {1, 3, 7}) {
    for (int index = 0; index < count; ++index) {
      std::vector<int> order = spread_order(136, Shard{index, count});
      EXPECT_EQ(static_cast<int>(order.size()), units_in_shard(136, Shard{index, count}));
      std::vector<int> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
      for (const int u : order) EXPECT_TRUE(unit_in_shard(u, Shard{index, count}));
      if (order.size() >= 2) {
        EXPECT_GT(order[1] - order[0], 136 / count / 3);  // far apart
      }
    }
  }
}

// The grid, the closed tours, the cycles and the start x end table by end pairs are the
// enumerator's on every board of at most 30 squares at least 3 wide, both orientations.
TEST(EndPairUnits, CountsAreTheEnumeratorsStartByEndMatrix) {
  for (int rows = 3; rows <= 10; ++rows) {
    for (int cols = 3; rows * cols <= 30; ++cols) {
      const BoardShape shape{rows, cols};
      SCOPED_TRACE(name(shape));
      const Board board(shape);
      const KnightGeometry moves(shape);
      const FrontierReport f = by_end_pairs(shape);
      const auto n = static_cast<std::size_t>(shape.squares());
      BigCount tours, closed;
      for (std::size_t s = 0; s < n; ++s) {
        const auto k = test::kernel_count(board, {static_cast<std::uint8_t>(s)}, SearchMode{});
        BigCount row, closed_here;
        for (std::size_t t = 0; t < n; ++t) {
          EXPECT_EQ(f.tours_by_start_end[s * n + t], BigCount(k.by_end[t])) << s << " to " << t;
          row += f.tours_by_start_end[s * n + t];
          if (moves.adjacent(static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(t))) {
            closed_here += BigCount(k.by_end[t]);
          }
        }
        EXPECT_EQ(f.tours_by_start[s], row);
        EXPECT_EQ(f.tours_by_start[s], BigCount(k.tours));
        EXPECT_EQ(f.closed_by_start[s], closed_here);
        tours += BigCount(k.tours);
        closed += closed_here;
      }
      EXPECT_EQ(f.tours, tours);
      EXPECT_EQ(f.closed_tours, closed);
      EXPECT_EQ(f.cycles * (2 * static_cast<std::uint64_t>(n)), closed);
    }
  }
}

// Against the other frontier grid (pinned tails) where the enumerator is slow: 6x6 and 5x8.
TEST(EndPairUnits, AgreeWithPinnedTails) {
  for (const BoardShape shape : {BoardShape{6, 6}, BoardShape{5, 8}}) {
    SCOPED_TRACE(name(shape));
    const FrontierReport t = by_grid(shape, GridMethod::pinned_tails);
    const FrontierReport p = by_end_pairs(shape);
    EXPECT_EQ(p.tours, t.tours);
    EXPECT_EQ(p.tours_by_start, t.tours_by_start);
    EXPECT_EQ(p.closed_by_start, t.closed_by_start);
    EXPECT_EQ(p.cycles, t.cycles);
  }
}

// A shard counts its own units: the shares add up to the whole, and no shard knows the cycles.
TEST(EndPairUnits, SharesAddUpToTheWhole) {
  const BoardShape shape{5, 6};
  const FrontierReport whole = by_end_pairs(shape);
  BigCount tours, closed;
  std::vector<BigCount> grid(30);
  for (int index = 0; index < 3; ++index) {
    const FrontierReport part = by_end_pairs(shape, index, 3);
    EXPECT_EQ(part.cycles, BigCount{});
    tours += part.tours;
    closed += part.closed_tours;
    for (std::size_t s = 0; s < 30; ++s) grid[s] += part.tours_by_start[s];
    EXPECT_EQ(part.sweeps_planned, 22);  // 66 units dealt round
  }
  EXPECT_EQ(tours, whole.tours);
  EXPECT_EQ(closed, whole.closed_tours);
  EXPECT_EQ(grid, whole.tours_by_start);
}

}  // namespace
}  // namespace knightstour
