#include "knightstour/count/frontier_projection.hpp"

#include <gtest/gtest.h>

#include "knightstour/count/run_count.hpp"

namespace knightstour {
namespace {

// A calibration stopped after `seconds`, having expanded `expanded` classes (1 µs each), held
// `peak` at most at 10 bytes a class during a step and 4 at rest, with the outlook's figures.
CountResult stopped(double seconds, std::uint64_t expanded, std::uint64_t peak, double left,
                    double projected_peak) {
  CountResult r;
  r.method = Method::frontier;
  r.seconds = seconds;
  r.complete = false;
  FrontierStatistics st;
  st.expanded = expanded;
  st.seconds_per_class = 1e-6;
  st.peak_classes = peak;
  st.peak_bytes = 10 * peak;
  st.peak_rest_bytes = 4 * peak;
  st.classes_left = left;
  st.projected_peak_classes = projected_peak;
  st.sweeps_planned = 2;
  r.statistics = st;
  return r;
}

TEST(FrontierProjection, TimeAndBytesFromWhatAClassTook) {
  const Projection p = project(stopped(2, 2'000'000, 1000, 8e6, 5000));
  EXPECT_DOUBLE_EQ(p.seconds, 2 + 8e6 * 1e-6);  // what ran, and what is left at its speed
  EXPECT_DOUBLE_EQ(p.bytes_per_class, 10);
  EXPECT_DOUBLE_EQ(p.peak_bytes, 5000 * 10);
  EXPECT_EQ(p.peak_seen, 1000u);
  EXPECT_FALSE(p.two_parts);
}

TEST(FrontierProjection, TheLargestGenerationAtRestAndTheWidestStepThatSpills) {
  const Projection p = project(stopped(2, 2'000'000, 1000, 8e6, 5000));
  EXPECT_DOUBLE_EQ(p.rest_bytes_per_class, 4);
  EXPECT_DOUBLE_EQ(p.peak_rest_bytes(), 5000 * 4);
  // The generation expanded, the one built and their successors (room_warning.hpp's rule).
  EXPECT_DOUBLE_EQ(p.widest_step_spilling(), 3 * 5000 * 4);

  // Before any generation was at rest, a class takes a 64-bit key and a 64-bit count.
  CountResult early = stopped(2, 2'000'000, 1000, 8e6, 5000);
  std::get<FrontierStatistics>(early.statistics).peak_rest_bytes = 0;
  EXPECT_DOUBLE_EQ(project(early).rest_bytes_per_class, 16);
  EXPECT_DOUBLE_EQ(project(early).widest_step_spilling(), 3 * 5000 * 16);
}

TEST(FrontierProjection, NothingExpandedProjectsNoTime) {
  const Projection p = project(stopped(1, 0, 0, 0, 0));
  EXPECT_LT(p.seconds, 0);
  EXPECT_DOUBLE_EQ(p.peak_bytes, 0);
}

TEST(FrontierProjection, AnOpenJobStoppedInItsClosedSweepIsProjectedInTwoParts) {
  CountResult closed = stopped(2, 2'000'000, 1000, 8e6, 5000);
  auto& a = std::get<FrontierStatistics>(closed.statistics);
  a.stopped_sweep_classes_left = 3e6;  // of the 8e6 left, the closed sweep's own
  EXPECT_TRUE(saw_only_the_closed_sweep(closed));
  CountResult open = stopped(2, 1'000'000, 4000, 4e7, 90'000);
  std::get<FrontierStatistics>(open.statistics).peak_bytes = 20 * 4000;
  const Projection p = project_in_two(closed, open);
  EXPECT_TRUE(p.two_parts);
  EXPECT_EQ(p.classes_expanded, 3'000'000u);
  EXPECT_DOUBLE_EQ(p.classes_left, 3e6 + 4e7);
  EXPECT_DOUBLE_EQ(p.peak_classes, 90'000);  // the open sweeps' peak, the larger
  EXPECT_DOUBLE_EQ(p.seconds, (2 + 3e6 * 1e-6) + (2 + 4e7 * 1e-6));
  EXPECT_DOUBLE_EQ(p.bytes_per_class, 20);  // the larger of the two
  EXPECT_DOUBLE_EQ(p.peak_bytes, 90'000 * 20);
  std::get<FrontierStatistics>(open.statistics).peak_rest_bytes = 6 * 4000;
  const Projection wider = project_in_two(closed, open);
  EXPECT_DOUBLE_EQ(wider.rest_bytes_per_class, 6);  // the larger of the two
  EXPECT_DOUBLE_EQ(wider.widest_step_spilling(), 3 * 90'000 * 6);

  // Open sweeps that finished within their calibration take what they took.
  open.complete = true;
  const Projection done = project_in_two(closed, open);
  EXPECT_DOUBLE_EQ(done.classes_left, 3e6);
  EXPECT_DOUBLE_EQ(done.peak_classes, 5000);  // the closed sweep's projection is the larger
  EXPECT_DOUBLE_EQ(done.seconds, (2 + 3e6 * 1e-6) + 2);
}

TEST(FrontierProjection, OnlyAStoppedOpenCalibrationThatFinishedNoSweepSawOnlyTheClosedOne) {
  CountResult r = stopped(2, 1000, 10, 1e6, 100);
  EXPECT_TRUE(saw_only_the_closed_sweep(r));
  r.closed = true;  // a closed job has no open sweeps
  EXPECT_FALSE(saw_only_the_closed_sweep(r));
  r.closed = false;
  std::get<FrontierStatistics>(r.statistics).sweeps_finished = 1;
  EXPECT_FALSE(saw_only_the_closed_sweep(r));
  std::get<FrontierStatistics>(r.statistics).sweeps_finished = 0;
  std::get<FrontierStatistics>(r.statistics).grid_method =
      GridMethod::end_pairs;  // no closed sweep
  EXPECT_FALSE(saw_only_the_closed_sweep(r));
  std::get<FrontierStatistics>(r.statistics).grid_method.reset();
  r.complete = true;
  EXPECT_FALSE(saw_only_the_closed_sweep(r));
}

// The model against a real calibration: 6x6 closed stopped by a budget smaller than its peak
// projects a peak at least as large as the one it held.
TEST(FrontierProjection, ARealCalibrationProjectsPastWhatItHeld) {
  CountRequest q;
  q.shape = BoardShape{6, 8};
  q.closed = true;
  q.prefix = {0};
  q.method = MethodAsked::frontier;
  q.memory_budget = 256u << 10;
  q.spill_dir = "none";
  const CountResult r = run_count(q);
  ASSERT_FALSE(r.complete);
  ASSERT_EQ(r.stop_reason, StopReason::memory);
  const Projection p = project(r);
  EXPECT_GT(p.classes_left, 0);
  EXPECT_GE(p.peak_classes, static_cast<double>(p.peak_seen));
  EXPECT_GT(p.seconds, r.seconds);
}

}  // namespace
}  // namespace knightstour
