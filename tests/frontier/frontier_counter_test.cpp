#include "knightstour/frontier/frontier_counter.hpp"

#include <gtest/gtest.h>

namespace knightstour {
namespace {

BigCount frontier_count(int rows, int cols, FrontierTarget target, int threads = 2) {
  const Sweep sweep({rows, cols});
  StopControl stop({});
  FrontierOptions options;
  options.threads = threads;
  const auto r = run_frontier(sweep, target, options, stop);
  EXPECT_TRUE(r.complete);
  return r.count;
}

TEST(FrontierCounter, KnownCycleCounts) {
  EXPECT_EQ(frontier_count(6, 6, {true, {}}).str(), "9862");
  EXPECT_EQ(frontier_count(5, 6, {true, {}}).str(), "8");
  EXPECT_EQ(frontier_count(3, 10, {true, {}}).str(), "16");
  EXPECT_EQ(frontier_count(6, 7, {true, {}}).str(), "1067638");
  EXPECT_EQ(frontier_count(6, 8, {true, {}}).str(), "55488142");
}

TEST(FrontierCounter, KnownPathCounts) {
  EXPECT_EQ(frontier_count(5, 5, {false, {}}).str(), "864");      // 1,728 directed
  EXPECT_EQ(frontier_count(3, 4, {false, {}}).str(), "8");        // 16 directed
  EXPECT_EQ(frontier_count(4, 5, {false, {}}).str(), "82");       // 164 directed
  EXPECT_EQ(frontier_count(6, 6, {false, {}}).str(), "3318960");  // 6,637,920 directed
}

TEST(FrontierCounter, PinnedStart) {
  const Sweep s({6, 6});
  EXPECT_EQ(frontier_count(6, 6, {false, s.vertex(0)}).str(), "524486");
  const Sweep f({5, 5});
  EXPECT_EQ(frontier_count(5, 5, {false, f.vertex(12)}).str(), "64");  // c3
  EXPECT_EQ(frontier_count(5, 5, {false, f.vertex(1)}).str(), "0");    // b1
}

// Counts past 64 bits (6x15 closed, OEIS A175881, widened to 128 bits mid-run) are checked
// through the CLI in tests/cli/count_cli.sh, which also checks their JSON form.

}  // namespace
}  // namespace knightstour
