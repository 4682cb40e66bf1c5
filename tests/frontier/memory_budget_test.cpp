#include "knightstour/frontier/memory_budget.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace knightstour {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

TEST(MemoryBudget, ReservationsPastTheLimitFail) {
  MemoryBudget budget(10 * kMiB);
  EXPECT_TRUE(budget.reserve(6 * kMiB));
  EXPECT_FALSE(budget.reserve(5 * kMiB));
  EXPECT_TRUE(budget.exceeded());
  EXPECT_EQ(budget.used(), 6 * kMiB);
  EXPECT_EQ(budget.room(), 4 * kMiB);
  budget.release(6 * kMiB);
  EXPECT_EQ(budget.peak(), 6 * kMiB);
}

// A chunk given back is kept, counted, and handed out again (the same memory, not faulted
// afresh); room() counts it as free, and a reservation that needs its room unmaps it.
TEST(MemoryBudget, IdleChunksAreReusedAndFreedForReservations) {
  MemoryBudget budget(std::uint64_t{2} << 30);
  ASSERT_EQ(budget.chunk_bytes(), 2 * kMiB);  // a huge page under a budget of 2 GiB
  void* a = budget.take_chunk();
  ASSERT_NE(a, nullptr);
  std::memset(a, 1, budget.chunk_bytes());
  EXPECT_EQ(budget.used(), 2 * kMiB);
  budget.give_chunk(a);
  EXPECT_EQ(budget.used(), 2 * kMiB);
  EXPECT_EQ(budget.idle_bytes(), 2 * kMiB);
  EXPECT_EQ(budget.room(), budget.limit());
  void* b = budget.take_chunk();
  EXPECT_EQ(b, a);
  EXPECT_EQ(static_cast<unsigned char*>(b)[0], 1);
  EXPECT_EQ(budget.idle_bytes(), 0u);
  budget.give_chunk(b);

  EXPECT_TRUE(budget.reserve(budget.limit() - kMiB));  // fits only once the idle chunk goes
  EXPECT_EQ(budget.idle_bytes(), 0u);
  EXPECT_EQ(budget.used(), budget.limit() - kMiB);
  EXPECT_EQ(budget.take_chunk(), nullptr);  // no idle chunk, no room for a new one
  EXPECT_TRUE(budget.exceeded());
  budget.release(budget.limit() - kMiB);
  EXPECT_EQ(budget.used(), 0u);
}

TEST(MemoryBudget, DropIdleReleasesEveryIdleChunk) {
  MemoryBudget budget(64 * kMiB);
  void* a = budget.take_chunk();
  void* b = budget.take_chunk();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  budget.give_chunk(a);
  budget.give_chunk(b);
  EXPECT_EQ(budget.used(), 2 * budget.chunk_bytes());
  budget.drop_idle();
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_EQ(budget.idle_bytes(), 0u);
}

}  // namespace
}  // namespace knightstour
