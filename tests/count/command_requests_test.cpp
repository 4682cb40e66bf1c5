#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/count/estimate.hpp"
#include "knightstour/count/merge.hpp"
#include "knightstour/count/run_count.hpp"
#include "knightstour/count/verify.hpp"

namespace knightstour {
namespace {

EstimateRequest estimate_of(BoardShape shape, std::vector<std::int64_t> prefix) {
  EstimateRequest r;
  r.count.shape = shape;
  r.count.prefix = std::move(prefix);
  r.walks = 2000;
  r.calibrate = 0.2;
  return r;
}

// Each command's refusals name its request's fields, never a flag: the CLI spells those.
TEST(CommandRequests, EstimateRefusalsNameFields) {
  EstimateRequest r = estimate_of({5, 5}, {0});
  EXPECT_TRUE(check(r).empty());
  r.walks = 0;
  EXPECT_EQ(check(r), std::vector<std::string>{"$walks must be at least 1"});
  r = estimate_of({5, 5}, {0});
  r.cores_per_shard = 4;
  r.calibrate = 0;
  EXPECT_EQ(check(r), (std::vector<std::string>{
                          "$cores_per_shard estimates every shard: give $shard_count N (2 or "
                          "more) and no $shard_index",
                          "$cores_per_shard needs the speed: $calibrate above 0"}));
  r.count.shard = Shard{0, 3};
  r.calibrate = 1;
  EXPECT_TRUE(check(r).empty());
}

TEST(CommandRequests, MergeAndVerifyRefusalsNameFields) {
  MergeRequest m;
  EXPECT_EQ(check(m),
            (std::vector<std::string>{
                "merge needs the shard run directories: knightstour merge DIR... $out DIR",
                "merge needs $out DIR: the new run directory to write the merged run to"}));
  m.inputs = {"a", "b"};
  m.out = "c";
  EXPECT_TRUE(check(m).empty());
  EXPECT_THROW(merge(MergeRequest{}), UsageError);
  VerifyRequest v;
  EXPECT_EQ(check(v), std::vector<std::string>{"verify needs a run directory or tour files"});
  EXPECT_THROW(verify(v), UsageError);
}

// One place picks the method of an estimate: walks ask for the enumerator, an end square for
// the frontier method, and the two together are refused.
TEST(CommandRequests, TheEstimatesMethod) {
  EstimateRequest r = estimate_of({6, 6}, {0});
  EXPECT_EQ(estimate_method(r).method, Method::dfs);
  r.count.end = 35;
  EXPECT_EQ(estimate_method(r).method, Method::frontier);
  EXPECT_EQ(estimate_method(r).why, "$end is sized by a count of its one sweep");
  r.walks_field = "walks";
  EXPECT_THROW(estimate_method(r), UsageError);
  r = estimate_of({6, 6}, {0});
  r.count.method = MethodAsked::frontier;
  r.walks_field = "seed";
  EXPECT_THROW(estimate_method(r), UsageError);
}

TEST(CommandRequests, AnEstimateByWalksSizesTheTreeItSampled) {
  const Estimate e = estimate(estimate_of({5, 5}, {0}));
  const auto* w = std::get_if<WalkEstimate>(&e);
  ASSERT_NE(w, nullptr);
  EXPECT_GT(w->e.walks, 1900u);  // the walks asked, spread evenly over the prefixes
  EXPECT_LE(w->e.walks, 2000u);
  EXPECT_GT(w->e.tours, 0);
  // 5x5 from a1 counts in well under the calibration: its figures are the count's.
  ASSERT_TRUE(w->whole.has_value());
  EXPECT_EQ(w->whole->tours, 304u);
}

// A frontier estimate whose calibration finishes the count holds the count's own figures:
// the same as run_count() of the same request.
TEST(CommandRequests, AFrontierEstimateThatFinishesIsTheCount) {
  EstimateRequest r = estimate_of({6, 6}, {0});
  r.count.closed = true;
  r.count.method = MethodAsked::frontier;
  r.calibrate = 30;
  const Estimate e = estimate(r);
  const auto* f = std::get_if<FrontierEstimate>(&e);
  ASSERT_NE(f, nullptr);
  ASSERT_TRUE(f->r.complete);
  EXPECT_FALSE(f->row);
  EXPECT_FALSE(f->interrupted);
  CountRequest c = r.count;
  EXPECT_EQ(f->r.tours, run_count(c).tours);
  EXPECT_EQ(f->r.tours, BigCount(19724));
}

TEST(CommandRequests, ARowIsPlannedNotCalibrated) {
  EstimateRequest r;
  r.count.shape = BoardShape{8, 30};
  r.count.closed = true;
  r.count.all_starts = true;
  r.count.every_length = true;
  r.count.residue_unit = 2;
  const Estimate e = estimate(r);
  const auto* f = std::get_if<FrontierEstimate>(&e);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->row);
  EXPECT_FALSE(f->r.complete);     // no calibration was run
  EXPECT_GE(f->residue_units, 3);  // 8x30's counts need more than two 62-bit primes
  EXPECT_NE(f->plan.request.modulus, 0u);
}

}  // namespace
}  // namespace knightstour
