#include "knightstour/plan/prefix_plan.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/search/search_state.hpp"
#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

const std::vector<std::vector<std::uint8_t>> kA1{{0}};

TEST(PrefixPlan, DepthOneFromTheCornerIsBothMoves) {
  const Board b(6, 6);
  const PrefixPlan plan(b, kA1, {}, 1);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(path_name(b, plan[0].data(), 2), "a1,c2");  // c2 = index 8 < b3 = 13
  EXPECT_EQ(path_name(b, plan[1].data(), 2), "a1,b3");
}

TEST(PrefixPlan, CanonicalOrderIsLexicographic) {
  // Depth-first with ascending square indices lists the prefixes in lexicographic order.
  const Board b(6, 6);
  const PrefixPlan plan(b, kA1, {}, 6);
  for (std::size_t id = 1; id < plan.size(); ++id) {
    const auto p = plan[id - 1];
    const auto q = plan[id];
    EXPECT_TRUE(std::lexicographical_compare(p.begin(), p.end(), q.begin(), q.end())) << id;
  }
}

TEST(PrefixPlan, EveryPrefixIsALiveKnightPath) {
  const Board b(6, 6);
  for (bool closed : {false, true}) {
    const PrefixPlan plan(b, kA1, {Algorithm::pruned, closed}, 7);
    ASSERT_GT(plan.size(), 100u);
    for (std::size_t id = 0; id < plan.size(); ++id) {
      const auto p = plan[id];
      const std::vector<std::uint8_t> path(p.begin(), p.end());
      EXPECT_NO_THROW(validate_path(b, path, "prefix"));
      EXPECT_TRUE(make_state(b, path, closed).has_value()) << id;
    }
  }
}

TEST(PrefixPlan, PrefixCountsSumToTheTotal) {
  const Board b(6, 6);
  for (int depth : {0, 1, 3, 8}) {
    const PrefixPlan plan(b, kA1, {}, depth);
    std::uint64_t sum = 0;
    for (std::size_t id = 0; id < plan.size(); ++id) {
      const auto p = plan[id];
      sum += test::kernel_count(b, {p.begin(), p.end()}, {}).tours;
    }
    EXPECT_EQ(sum, 524'486u) << "depth " << depth;
  }
}

TEST(PrefixPlan, NaivePlanKeepsDeadPrefixes) {
  const Board b(5, 5);
  const PrefixPlan pruned(b, kA1, {Algorithm::pruned, false}, 6);
  const PrefixPlan naive(b, kA1, {Algorithm::naive, false}, 6);
  EXPECT_GT(naive.size(), pruned.size());
  std::uint64_t sum = 0;
  for (std::size_t id = 0; id < naive.size(); ++id) {
    const auto p = naive[id];
    sum += test::kernel_count(b, {p.begin(), p.end()}, {Algorithm::naive, false}).tours;
  }
  EXPECT_EQ(sum, 304u);
}

TEST(PrefixPlan, FullLengthPrefixesAreTours) {
  const Board b(3, 4);
  const PrefixPlan plan(b, kA1, {}, 11);
  EXPECT_EQ(plan.size(), 2u);  // 3x4 from a1 has 2 tours
  EXPECT_THROW(PrefixPlan(b, kA1, {}, 12), UsageError);
}

TEST(PrefixPlan, CountsByDepthGrow) {
  const Board b(6, 6);
  const auto counts = prefix_counts(b, kA1, {}, 10, 1000);
  ASSERT_GE(counts.size(), 2u);
  EXPECT_EQ(counts[0], 1u);
  EXPECT_EQ(counts[1], 2u);
  EXPECT_GE(counts.back(), 1000u);
  for (std::size_t d = 0; d + 1 < counts.size(); ++d) {
    EXPECT_EQ(counts[d], PrefixPlan(b, kA1, {}, static_cast<int>(d)).size());
  }
}

}  // namespace
}  // namespace knightstour
