#include "frontier/store/memory_budget.hpp"

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

// A step keeps only the idle chunks it expects to fill (StepPlanner::trim_idle).
TEST(MemoryBudget, TrimIdleKeepsAtMostWhatItIsTold) {
  MemoryBudget budget(64 * kMiB);
  const std::uint64_t chunk = budget.chunk_bytes();
  void* taken[3] = {budget.take_chunk(), budget.take_chunk(), budget.take_chunk()};
  for (void* c : taken) {
    ASSERT_NE(c, nullptr);
    budget.give_chunk(c);
  }
  budget.trim_idle(2 * chunk + chunk / 2);  // not a whole chunk more: two stay
  EXPECT_EQ(budget.idle_bytes(), 2 * chunk);
  EXPECT_EQ(budget.used(), 2 * chunk);
  budget.trim_idle(5 * chunk);  // keeps what it has
  EXPECT_EQ(budget.idle_bytes(), 2 * chunk);
  budget.trim_idle(0);
  EXPECT_EQ(budget.used(), 0u);
}

// A budget's idle chunks outlive it in an IdleChunks, and the next budget takes them in,
// counted, as far as its limit allows (the same memory, not faulted afresh); a budget whose
// chunks are another size unmaps them; reserve_if_room's refusal is not the budget exceeded.
TEST(MemoryBudget, IdleChunksPassFromOneBudgetToTheNext) {
  IdleChunks kept;
  void* a = nullptr;
  void* b = nullptr;
  {
    MemoryBudget first(std::uint64_t{2} << 30);
    first.share_idle(kept);
    a = first.take_chunk();
    b = first.take_chunk();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    static_cast<unsigned char*>(a)[0] = 7;
    first.give_chunk(a);
    first.give_chunk(b);
  }
  EXPECT_EQ(kept.size(), 2u);
  {
    // Room for one of the two beside 3 MiB already held.
    MemoryBudget second(std::uint64_t{1} << 30);
    ASSERT_EQ(second.chunk_bytes(), 2 * kMiB);
    second.charge(second.limit() - 3 * kMiB);
    second.share_idle(kept);
    EXPECT_EQ(kept.size(), 0u);
    EXPECT_EQ(second.idle_bytes(), 2 * kMiB);
    EXPECT_EQ(second.used(), second.limit() - kMiB);
    void* c = second.take_chunk();
    EXPECT_TRUE(c == a || c == b);
    if (c == a) {
      EXPECT_EQ(static_cast<unsigned char*>(c)[0], 7);
    }
    EXPECT_FALSE(second.reserve_if_room(2 * kMiB));
    EXPECT_FALSE(second.exceeded());
    second.give_chunk(c);
    second.release(second.limit() - 3 * kMiB);
  }
  EXPECT_EQ(kept.size(), 1u);
  {
    MemoryBudget small(64 * kMiB);  // chunks of 128 KiB: the huge page is unmapped
    ASSERT_NE(small.chunk_bytes(), 2 * kMiB);
    small.share_idle(kept);
    EXPECT_EQ(small.used(), 0u);
    EXPECT_EQ(small.idle_bytes(), 0u);
  }
  EXPECT_EQ(kept.size(), 0u);
}

}  // namespace
}  // namespace knightstour
