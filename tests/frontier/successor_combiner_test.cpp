// A thread's combiner (successor_combiner.hpp): whatever it merges and whatever it pushes on,
// the successors pushed on plus those flushed add up, key by key, to every successor added,
// each in its own part; counts that outgrow K limbs are reported; the budget is given back.
#include "frontier/step/successor_combiner.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>

namespace knightstour::frontier_detail {
namespace {

using Sums = std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>;  // low, high

void add_to(Sums& sums, std::uint64_t key, const WideCount<2>& c) {
  auto& [low, high] = sums[key];
  const std::uint64_t before = low;
  low += c.limb[0];
  high += c.limb[1] + (low < before ? 1 : 0);
}

// Keys from a few hundred (merged often, in the same slot) to many thousand (pushed on far
// more often than merged): the sums are the same either way.
TEST(SuccessorCombiner, WhatIsPushedOnAndFlushedAddsUpToWhatWasAdded) {
  for (const std::uint64_t distinct : {300u, 3000u, 100000u}) {
    MemoryBudget budget(std::uint64_t{1} << 30);
    Sums added, kept;
    std::uint64_t pushed = 0, wrong_part = 0;
    {
      SuccessorCombiner<2> combiner(&budget);
      EXPECT_EQ(combiner.bytes(), 0u);  // made at the first add
      auto keep = [&](std::size_t part, std::uint64_t key, const WideCount<2>& c) {
        ++pushed;
        if (part != key % 7) ++wrong_part;
        add_to(kept, key, c);
        return true;
      };
      std::mt19937_64 rng(distinct);
      bool overflow = false;
      constexpr int kAdded = 200000;
      for (int i = 0; i < kAdded; ++i) {
        const std::uint64_t key = rng() % distinct * 0x10001;  // not 0 .. n: spread over bits
        const WideCount<2> count{{rng() >> 3, rng() % 3}};
        add_to(added, key, count);
        ASSERT_TRUE(combiner.add(key % 7, key, count, overflow, keep));
      }
      EXPECT_GT(combiner.bytes(), 0u);
      EXPECT_EQ(budget.used(), combiner.bytes());
      EXPECT_FALSE(overflow);
      const std::uint64_t before_flush = pushed;
      ASSERT_TRUE(combiner.flush(keep));
      EXPECT_GT(pushed, before_flush);                        // it held some
      EXPECT_LT(pushed, static_cast<std::uint64_t>(kAdded));  // and merged some
      EXPECT_EQ(budget.used(), 0u);                           // given back at the flush
      EXPECT_TRUE(combiner.flush(keep));                      // emptied: nothing twice
    }
    EXPECT_EQ(kept, added) << distinct << " distinct keys";
    EXPECT_EQ(wrong_part, 0u);
    EXPECT_EQ(budget.used(), 0u);
  }
}

TEST(SuccessorCombiner, ASumThatOutgrowsTheLimbsIsReported) {
  SuccessorCombiner<1> combiner;
  bool overflow = false;
  auto keep = [](std::size_t, std::uint64_t, const WideCount<1>&) { return true; };
  ASSERT_TRUE(combiner.add(0, 42, WideCount<1>{{~std::uint64_t{0} - 1}}, overflow, keep));
  ASSERT_TRUE(combiner.add(0, 42, WideCount<1>{{1}}, overflow, keep));
  EXPECT_FALSE(overflow);
  ASSERT_TRUE(combiner.add(0, 42, WideCount<1>{{1}}, overflow, keep));
  EXPECT_TRUE(overflow);
}

// A keep that fails (out of memory) fails the add that pushed on, and the flush.
TEST(SuccessorCombiner, AKeepThatFailsIsPassedOn) {
  SuccessorCombiner<1> combiner;
  bool overflow = false;
  auto refuse = [](std::size_t, std::uint64_t, const WideCount<1>&) { return false; };
  bool refused = false;
  for (std::uint64_t key = 1; key < 100000 && !refused; ++key)
    refused = !combiner.add(0, key, WideCount<1>{{1}}, overflow, refuse);
  EXPECT_TRUE(refused);
  EXPECT_FALSE(combiner.flush(refuse));
}

}  // namespace
}  // namespace knightstour::frontier_detail
