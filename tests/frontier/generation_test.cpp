#include <gtest/gtest.h>

#include "knightstour/frontier/generation_store.hpp"
#include "support/temp_dir.hpp"

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
  for (const auto& part : g.parts) {  // NOLINT(bugprone-use-after-move): freed, not moved from
    EXPECT_EQ(part.keys.capacity(), 0u);
    EXPECT_EQ(part.counts.capacity(), 0u);
  }
  ASSERT_EQ(wide.size(), 5u);
  for (std::uint64_t i = 0; i < 5; ++i) {
    const auto& part = wide.parts[i % 2];
    EXPECT_EQ(part.keys[i / 2], 100 + i);
    EXPECT_EQ(part.counts[i / 2].limb[0], ~std::uint64_t{0} - i);
    EXPECT_EQ(part.counts[i / 2].limb[1], 0u);
  }
}

// A generation in a spill file reads the same, holds no budget, and widens into a new
// spill file (a step that overflows on a spilled generation must not pull it into memory).
TEST(Generation, SpilledPartsReadTheSameAndWidenOnDisk) {
  test::TempDir dir;
  SpillArea area(dir.path());
  Generation<1> g;
  g.parts.resize(3);
  for (std::uint64_t i = 0; i < 1000; ++i) {
    auto& part = g.parts[i % 3 == 2 ? 2 : 0];  // part 1 stays empty
    part.keys.push_back(7 * i);
    part.counts.push_back(WideCount<1>{{~std::uint64_t{0} - i}});
  }
  MemoryBudget budget(1 << 20);
  ASSERT_TRUE(budget.reserve(g.memory_bytes()));

  spill_parts(g, area, budget);

  EXPECT_EQ(budget.used(), 0u);
  // The memory is freed, not only released from the budget (`keys = {}` kept the capacity:
  // the process held the whole generation beside its spill file).
  for (const auto& part : g.parts) {
    EXPECT_EQ(part.keys.capacity(), 0u);
    EXPECT_EQ(part.counts.capacity(), 0u);
  }
  EXPECT_EQ(g.memory_bytes(), 0u);
  EXPECT_TRUE(g.parts[0].in_file());
  EXPECT_FALSE(g.parts[1].in_file());
  ASSERT_EQ(g.size(), 1000u);
  EXPECT_EQ(area.bytes_written(), 1000u * 16);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // unlinked once mapped

  const Generation<2> wide = widened(std::move(g), budget, &area);

  EXPECT_EQ(budget.used(), 0u);
  EXPECT_TRUE(wide.parts[0].in_file());
  ASSERT_EQ(wide.size(), 1000u);
  std::uint64_t seen = 0;
  for (const auto& part : wide.parts) {
    for (std::size_t i = 0; i < part.size(); ++i, ++seen) {
      const std::uint64_t original = part.key_data()[i] / 7;
      EXPECT_EQ(part.count_data()[i].limb[0], ~std::uint64_t{0} - original);
      EXPECT_EQ(part.count_data()[i].limb[1], 0u);
    }
  }
  EXPECT_EQ(seen, 1000u);
}

}  // namespace
}  // namespace knightstour
