#include "knightstour/frontier/generation.hpp"

#include <gtest/gtest.h>

namespace knightstour {
namespace {

// Widening keeps every class and count, and moves the budget from the narrow generation's
// bytes to the wide one's (it once released nothing, so the budget drifted upwards with
// every widening and a long run could be refused memory it did not use).
TEST(Generation, WideningKeepsClassesAndMovesTheBudget) {
  Generation<1> g;
  g.parts.resize(2);
  for (std::uint64_t i = 0; i < 5; ++i) {
    auto& part = g.parts[i % 2];
    part.keys.push_back(100 + i);
    part.counts.push_back(WideCount<1>{{~std::uint64_t{0} - i}});
  }
  MemoryBudget budget(1 << 20);
  ASSERT_TRUE(budget.reserve(5 * Generation<1>::kClassBytes));

  const Generation<2> wide = widened(std::move(g), budget);

  EXPECT_EQ(budget.used(), 5 * Generation<2>::kClassBytes);
  ASSERT_EQ(wide.size(), 5u);
  for (std::uint64_t i = 0; i < 5; ++i) {
    const auto& part = wide.parts[i % 2];
    EXPECT_EQ(part.keys[i / 2], 100 + i);
    EXPECT_EQ(part.counts[i / 2].limb[0], ~std::uint64_t{0} - i);
    EXPECT_EQ(part.counts[i / 2].limb[1], 0u);
  }
}

}  // namespace
}  // namespace knightstour
