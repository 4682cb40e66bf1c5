#include "frontier/step/step_plan.hpp"

#include <gtest/gtest.h>

#include <variant>

#include "frontier/class/step_rule.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour::frontier_detail {
namespace {

// A part is sized for about 2^14 successors, so that its aggregation table stays in the
// cache; a thread keeps a block open per part, so there are never more than 2^14.
TEST(StepPlan, PartsHoldAboutSixteenThousandSuccessorsUpToTheirLimit) {
  EXPECT_EQ(part_bits(0), 0);
  EXPECT_EQ(part_bits(16384), 0);
  EXPECT_EQ(part_bits(16385), 1);
  EXPECT_EQ(part_bits(std::uint64_t{1} << 22), 8);
  EXPECT_EQ(part_bits(std::uint64_t{1} << 40), kMaxPartBits);
  // A class's part is its hash's top bits.
  EXPECT_EQ(part_at(~std::uint64_t{0}, 0), 0u);
  EXPECT_EQ(part_at(std::uint64_t{1} << 63, 1), 1u);
  EXPECT_EQ(part_at((std::uint64_t{1} << 63) - 1, 1), 0u);
  EXPECT_EQ(part_at(~std::uint64_t{0}, kMaxPartBits), (std::size_t{1} << kMaxPartBits) - 1);
}

// A pass fills 85% of the room; a step that needs more is cut into as many ranges as that
// takes, never more than its parts (a part is never split).
TEST(StepPlan, RangesFillEightyFivePercentOfTheRoom) {
  EXPECT_TRUE(fits_one_pass(0, 100));
  EXPECT_TRUE(fits_one_pass(85, 100));
  EXPECT_FALSE(fits_one_pass(86, 100));
  EXPECT_FALSE(worth_sampling(42, 100));
  EXPECT_TRUE(worth_sampling(43, 100));
  EXPECT_EQ(ranges_for(0, 100, 16), 1u);
  EXPECT_EQ(ranges_for(85, 100, 16), 1u);
  EXPECT_EQ(ranges_for(86, 100, 16), 2u);
  EXPECT_EQ(ranges_for(340, 100, 16), 4u);
  EXPECT_EQ(ranges_for(341, 100, 16), 5u);
  EXPECT_EQ(ranges_for(std::uint64_t{1} << 40, 100, 16), 16u);
  EXPECT_EQ(ranges_for(10, 0, 8), 8u);  // no room at all: as many ranges as parts
}

// A step that would not fit one pass (85% of the room) is sliced: as many slices as keep a
// slice's successors within the larger generation's bytes and within what the room leaves
// beside the partial parts (1.5 times the next generation), 2 to 16; a step whose partial
// parts alone would not fit is not sliced (it is built in ranges). Without spill files, from
// a quarter of the room.
TEST(StepPlan, SlicesKeepASlicesSuccessorsWithinTheGenerationAndTheRoom) {
  // successor bytes, next generation's bytes, current generation's at rest, room
  EXPECT_EQ(slices_for(60, 25, 10, 100), 1u);   // fits one pass
  EXPECT_EQ(slices_for(61, 25, 10, 100), 3u);   // 61 / 25
  EXPECT_EQ(slices_for(80, 20, 10, 100), 4u);   // 80 / 20: the next generation is larger
  EXPECT_EQ(slices_for(80, 10, 20, 100), 4u);   // 80 / 20: the current one is
  EXPECT_EQ(slices_for(400, 10, 5, 100), 16u);  // a sixteenth of 400 each, at the least
  EXPECT_EQ(slices_for(80, 10, 100, 100), 2u);  // two at the least
  EXPECT_EQ(slices_for(80, 50, 40, 100), 8u);   // the room leaves 85 - 75 = 10 beside
  EXPECT_EQ(slices_for(80, 57, 40, 100), 1u);   // partial parts of 85.5: not sliced
  EXPECT_DOUBLE_EQ(sliced_need(80, 50, 8), 85.0);
  // Without spill files, from a quarter of the room.
  EXPECT_EQ(slices_for(20, 5, 10, 100, kSliceWithoutSpill), 1u);
  EXPECT_EQ(slices_for(21, 5, 10, 100, kSliceWithoutSpill), 3u);
}

// A sliced step that sets its current generation aside holds, beside the room, the partial
// parts and a slice's successors less the slices of the current generation freed: at its
// fullest after the first slice or after the last. The fewest slices that fit are taken.
TEST(StepPlan, SettingTheCurrentGenerationAsideLetsThePartialPartsTakeItsPlace) {
  // 80 of successors, 20 of next generation (30 of partial parts), 40 of current in 4 slices:
  // after the first, 20 + 7.5; after the last, 20 + 30 - 30.
  EXPECT_DOUBLE_EQ(aside_need(80, 20, 40, 4), 27.5);
  EXPECT_DOUBLE_EQ(aside_need(80, 20, 10, 4), 20 + 30 - 7.5);  // after the last
  EXPECT_DOUBLE_EQ(aside_need(80, 20, 0, 4), sliced_need(80, 20, 4));
  // Room 40 (the whole of it: the forecast has margins of its own): 2 slices need 40 + 15,
  // 3 need 26.7 + 10.
  EXPECT_EQ(slices_setting_aside(80, 20, 40, 40), 3u);
  EXPECT_EQ(slices_setting_aside(80, 20, 40, 36), 4u);   // 27.5
  EXPECT_EQ(slices_setting_aside(80, 20, 40, 200), 2u);  // the fewest
  // The slices alone, at 16, do not fit: 5 + 30 - 0 > 30.
  EXPECT_EQ(slices_setting_aside(80, 20, 0, 30), 1u);
  EXPECT_EQ(slices_setting_aside(80, 20, 40, 5), 1u);
}

// The successors counted on a 1/64 sample of a real generation (6x7 open paths, step 30,
// where the generation is near its widest) are within 5% of the successors that expanding
// every class makes.
TEST(StepPlan, SampledSuccessorsAreCloseToTheTrueNumber) {
  const Sweep sweep({6, 7});
  const FrontierTarget target{false, std::nullopt};
  FrontierOptions options;
  options.threads = 2;
  options.until_step = 30;
  StopControl stop(Caps{});
  FrontierResult paused = run_frontier(sweep, target, options, stop);
  ASSERT_TRUE(paused.paused.has_value());
  const auto& current = std::get<Generation<1>>(paused.paused->classes);
  ASSERT_GT(current.size(), 100000u);
  const StepRules rules = make_step_rules(sweep, target);
  const StepRule& rule = rules.steps[30];
  std::uint64_t every = 0;
  current.for_each_class([&](std::uint64_t key, const WideCount<1>&) {
    expand(
        rules, rule, key, [&](std::uint64_t) { ++every; }, [] {});
  });
  const std::uint64_t sampled = sampled_successors(rules, rule, current);
  EXPECT_NEAR(static_cast<double>(sampled), static_cast<double>(every),
              0.05 * static_cast<double>(every));
}

}  // namespace
}  // namespace knightstour::frontier_detail
