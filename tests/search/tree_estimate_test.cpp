#include "knightstour/search/tree_estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

// Knuth's estimator is unbiased: with many walks it lands within a few standard errors of
// the exact counts (seeded, so these checks are deterministic).
TEST(TreeEstimate, CloseToExactCountsOnSixBySix) {
  const Board b(6, 6);
  const std::vector<std::uint8_t> a1{0};
  std::mt19937_64 rng(7);
  const auto e = estimate_tree(b, a1, {}, 400'000, rng);
  const auto exact = test::kernel_count(b, a1, {});
  EXPECT_NEAR(e.tours, 524'486.0, 4 * e.tours_error());
  EXPECT_NEAR(e.nodes, static_cast<double>(exact.nodes), 4 * e.nodes_error());
  EXPECT_LT(e.tours_error(), 0.1 * e.tours);
  EXPECT_EQ(e.walks, 400'000u);
}

TEST(TreeEstimate, NaiveTreeToo) {
  const Board b(5, 5);
  const std::vector<std::uint8_t> a1{0};
  std::mt19937_64 rng(3);
  const auto e = estimate_tree(b, a1, {Algorithm::naive, false}, 400'000, rng);
  const auto exact = test::kernel_count(b, a1, {Algorithm::naive, false});
  EXPECT_NEAR(e.tours, 304.0, 4 * e.tours_error() + 1);
  EXPECT_NEAR(e.nodes, static_cast<double>(exact.nodes), 4 * e.nodes_error());
}

TEST(TreeEstimate, DeadRootEstimatesZero) {
  const Board b(5, 5);
  const std::vector<std::uint8_t> b1{1};
  std::mt19937_64 rng(1);
  const auto e = estimate_tree(b, b1, {}, 100, rng);
  EXPECT_EQ(e.tours, 0.0);
  EXPECT_EQ(e.nodes, 0.0);
}

}  // namespace
}  // namespace knightstour
