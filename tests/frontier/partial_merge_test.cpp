#include "frontier/step/partial_merge.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <vector>

#include "frontier/step/aggregation_table.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "support/generation_classes.hpp"

namespace knightstour {
namespace {

using frontier_detail::merge_order;
using frontier_detail::merge_parts;
constexpr int kBucketBits = AggregationTable<1>::kBucketBits;

// Keys of 40 type patterns of `slots` slots (types in the low 2 * slots bits) with mates
// above them, so that slices share many keys; counts 1 to 300 (one and two bytes).
std::uint64_t patterned_key(std::mt19937_64& rng, const std::vector<std::uint64_t>& patterns,
                            int slots) {
  return patterns[rng() % patterns.size()] | ((rng() % 200) << (2 * slots));
}

// Whether a part's classes are in MergeOrder, each key once.
bool in_merge_order(const ClassPart& part, int slots) {
  const auto classes = test::classes_of_part<1>(part);
  for (std::size_t i = 1; i < classes.size(); ++i) {
    if (!(merge_order(classes[i - 1].first, slots, kBucketBits) <
          merge_order(classes[i].first, slots, kBucketBits)))
      return false;
  }
  return true;
}

// Successors cut into slices, each slice aggregated apart into a partial part (sorted), the
// partial parts merged: every key once with the sum of all its slices, the same classes as
// one table aggregating every successor makes, and in MergeOrder. With grouping slots (type
// patterns) and without (slots 0, keys alone).
TEST(PartialMerge, SlicesAggregatedApartMergeToTheSumsOfTheWhole) {
  for (const int slots : {6, 0}) {
    SCOPED_TRACE(slots);
    MemoryBudget budget(std::uint64_t{1} << 30);
    std::mt19937_64 rng(3);
    std::vector<std::uint64_t> patterns;
    for (int i = 0; i < 40; ++i) patterns.push_back(rng() & 0xfff);
    constexpr int kSlices = 4;
    std::vector<std::unique_ptr<SuccessorBlocks<1>>> slices;
    SuccessorBlocks<1> whole(1, budget);
    std::map<std::uint64_t, std::uint64_t> expected;
    for (int s = 0; s < kSlices; ++s) {
      slices.push_back(std::make_unique<SuccessorBlocks<1>>(1, budget));
      for (int i = 0; i < 5000; ++i) {
        const std::uint64_t key = patterned_key(rng, patterns, 6);
        const WideCount<1> count{{1 + rng() % 300}};
        ASSERT_TRUE(slices.back()->add(0, key, count));
        ASSERT_TRUE(whole.add(0, key, count));
        expected[key] += count.limb[0];
      }
    }
    AggregationTable<1> table;
    bool overflow = false;
    std::vector<ClassPart> partial(kSlices);
    std::uint64_t partial_classes = 0;
    for (int s = 0; s < kSlices; ++s) {
      ASSERT_TRUE(table.aggregate({slices[static_cast<std::size_t>(s)].get()}, 0,
                                  partial[static_cast<std::size_t>(s)], budget, overflow, slots,
                                  true));
      EXPECT_TRUE(in_merge_order(partial[static_cast<std::size_t>(s)], slots));
      partial_classes += partial[static_cast<std::size_t>(s)].size();
    }
    ASSERT_GT(partial_classes, expected.size() + expected.size() / 2);  // keys in many slices
    std::vector<const ClassPart*> in;
    for (const auto& p : partial) in.push_back(&p);
    PartWriter<1> writer(slots);
    std::vector<ClassBuffer<1>> buffers(kSlices);
    const ClassPart merged = merge_parts<1>(in, slots, kBucketBits, writer, buffers, overflow);
    EXPECT_FALSE(overflow);
    EXPECT_TRUE(in_merge_order(merged, slots));
    std::map<std::uint64_t, std::uint64_t> got;
    for (const auto& [key, count] : test::classes_of_part<1>(merged)) {
      EXPECT_EQ(got.count(key), 0u) << key;
      got[key] = count.limb[0];
    }
    EXPECT_EQ(got, expected);
    ClassPart one;
    ASSERT_TRUE(table.aggregate({&whole}, 0, one, budget, overflow, slots));
    std::map<std::uint64_t, std::uint64_t> at_once;
    for (const auto& [key, count] : test::classes_of_part<1>(one)) at_once[key] = count.limb[0];
    EXPECT_EQ(at_once, got);
    // Grouped alike: the merged part takes no more bytes than the one a table made.
    if (slots > 0) {
      EXPECT_LE(merged.memory_bytes(), one.memory_bytes() + one.memory_bytes() / 20);
    }
    table.release(budget);
  }
}

// Where the budget has no room for the grouping's copy, a partial part is sorted in place,
// into the same MergeOrder, with the same sums.
TEST(PartialMerge, APartialPartIsSortedInPlaceWhereTheBudgetHasNoRoomForTheCopy) {
  constexpr std::uint64_t kChunk = std::uint64_t{64} << 10;
  constexpr std::uint64_t kTable = std::uint64_t{8192} * 16;  // 3/2 slot a successor, 2^k
  constexpr std::uint64_t kPartAtMost = 5000 * Generation<1>::kClassBytes;
  MemoryBudget budget(kTable + kPartAtMost + 2 * kChunk);
  SuccessorBlocks<1> blocks(1, budget);
  ASSERT_EQ(budget.chunk_bytes(), kChunk);
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> patterns;
  for (int i = 0; i < 40; ++i) patterns.push_back(rng() & 0xfff);
  std::map<std::uint64_t, std::uint64_t> expected;
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t key = patterned_key(rng, patterns, 6);
    ASSERT_TRUE(blocks.add(0, key, WideCount<1>{{1}}));
    ++expected[key];
  }
  AggregationTable<1> table;
  ClassPart out;
  bool overflow = false;
  ASSERT_TRUE(table.aggregate({&blocks}, 0, out, budget, overflow, 6, true));
  EXPECT_LT(table.bytes(), kTable + (100u << 10));  // no copy
  EXPECT_TRUE(in_merge_order(out, 6));
  std::map<std::uint64_t, std::uint64_t> got;
  for (const auto& [key, count] : test::classes_of_part<1>(out)) got[key] = count.limb[0];
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(budget.exceeded());
}

// Empty partial parts (a slice that made nothing for the part) merge away, and a sum that
// outgrows the limbs is reported.
TEST(PartialMerge, EmptyPartsMergeAwayAndASumPastItsLimbsIsReported) {
  const std::uint64_t big = ~std::uint64_t{0} - 5;
  // Keys 7 and 9 in MergeOrder (by merge_hash, with no slots).
  const bool seven_first = merge_hash(7) < merge_hash(9);
  const ClassPart a = seven_first ? part_of<1>({7, 9}, {WideCount<1>{{big}}, WideCount<1>{{1}}}, 0)
                                  : part_of<1>({9, 7}, {WideCount<1>{{1}}, WideCount<1>{{big}}}, 0);
  const ClassPart b = part_of<1>({7}, {WideCount<1>{{10}}}, 0);
  const ClassPart none;
  PartWriter<1> writer(0);
  std::vector<ClassBuffer<1>> buffers(3);
  bool overflow = false;
  const ClassPart only =
      merge_parts<1>({&none, &b, &none}, 0, kBucketBits, writer, buffers, overflow);
  EXPECT_FALSE(overflow);
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(test::classes_of_part<1>(only)[0].second.limb[0], 10u);
  const ClassPart both = merge_parts<1>({&a, &none, &b}, 0, kBucketBits, writer, buffers, overflow);
  EXPECT_TRUE(overflow);
  EXPECT_EQ(both.size(), 2u);
}

}  // namespace
}  // namespace knightstour
