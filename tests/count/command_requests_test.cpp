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

// The closed cycles of every length of `shape`'s row.
EstimateRequest closed_row(BoardShape shape) {
  EstimateRequest r;
  r.count.shape = shape;
  r.count.closed = true;
  r.count.all_starts = true;
  r.count.every_length = true;
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

// A row is sized by the boards its sweeps cost about as much as, each estimated alone: the
// lengths below the rows' count (5x4: 5x1 and 5x3 have no closed tour, 5x2 no tour at all)
// and the longest, for the sweep across the rows. Calibrated long enough to finish, each
// board's estimate is its count, the row's term for that length, and the row's time theirs.
TEST(CommandRequests, ARowIsSizedByItsBoards) {
  EstimateRequest r = closed_row({5, 12});
  r.calibrate = 60;
  const Estimate e = estimate(r);
  const auto* f = std::get_if<FrontierEstimate>(&e);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->row);
  ASSERT_EQ(f->parts.size(), 2u);
  ASSERT_EQ(f->across, 12);
  CountRequest c = r.count;
  const CountResult row = run_count(c);
  ASSERT_EQ(row.by_length.size(), 12u);
  double seconds = 0;
  for (const FrontierEstimate& part : f->parts) {
    ASSERT_TRUE(part.r.complete);
    const int n = part.plan.request.shape.cols;
    EXPECT_EQ(part.plan.request.shape.rows, 5);
    ASSERT_TRUE(part.r.closed_cycles.has_value());
    EXPECT_EQ(*part.r.closed_cycles, row.by_length[n - 1].cycles) << "5x" << n;
    seconds += part.r.seconds;
  }
  EXPECT_EQ(f->parts.front().plan.request.shape.cols, 4);
  EXPECT_DOUBLE_EQ(f->seconds(), seconds);
  EXPECT_GT(f->peak_classes(), 0);
}

// A residue unit of a row: each board estimated modulo the unit's prime, the row's time
// projected from a calibration that stops.
TEST(CommandRequests, AResidueUnitOfARowIsProjected) {
  EstimateRequest r = closed_row({8, 30});
  r.count.residue_unit = 2;
  r.calibrate = 0.5;
  const Estimate e = estimate(r);
  const auto* f = std::get_if<FrontierEstimate>(&e);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->row);
  EXPECT_GE(f->residue_units, 3);  // 8x30's counts need more than two 62-bit primes
  const std::uint64_t p = f->plan.request.modulus;
  EXPECT_NE(p, 0u);
  ASSERT_EQ(f->across, 30);
  ASSERT_EQ(f->parts.size(), 6u);  // 8x3 to 8x7 alone, then 8x30
  for (const FrontierEstimate& part : f->parts) EXPECT_EQ(part.plan.request.modulus, p);
  const FrontierEstimate& across = f->parts.back();
  EXPECT_FALSE(across.r.complete);
  EXPECT_GT(across.p.seconds, across.r.seconds);
  EXPECT_GT(f->seconds(), across.p.seconds);  // and the boards alone before it
  EXPECT_GE(f->peak_bytes(), across.p.peak_bytes);
}

}  // namespace
}  // namespace knightstour
