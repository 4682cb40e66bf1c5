#include "knightstour/plan/plan_estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

TEST(PlanEstimate, AllStartsAccountsForMirrorImages) {
  const auto job = test::make_all_starts_job("6x6");
  const auto e = estimate_plan(resolve(job.request, job.threads), 1'000'000, 11, 2);
  EXPECT_LT(e.searches * 6, e.prefixes);
  EXPECT_NEAR(e.tours, 6'637'920.0, 4 * std::sqrt(e.tours_var));
  const auto counted = test::count(job);
  EXPECT_NEAR(e.searched.nodes, static_cast<double>(counted.nodes), 4 * e.searched.nodes_error());
}

}  // namespace
}  // namespace knightstour
