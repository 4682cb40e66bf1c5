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
