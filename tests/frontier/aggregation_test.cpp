#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "frontier/step/aggregation_table.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "support/generation_classes.hpp"

namespace knightstour {
namespace {

// Three "threads" write successors of 16 parts (many keys repeated, within a thread and
// across threads, enough to fill many blocks); aggregating each part must give exactly the
// sums a std::map computes, each key once, in the right part, and give every byte back.
TEST(Aggregation, EqualKeysAddUpPartByPartAcrossThreads) {
  constexpr std::size_t kParts = 16;
  MemoryBudget budget(std::uint64_t{1} << 30);
  std::vector<std::unique_ptr<SuccessorBlocks<2>>> threads;
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> expected;  // low, high
  std::mt19937_64 rng(7);
  for (int t = 0; t < 3; ++t) {
    threads.push_back(std::make_unique<SuccessorBlocks<2>>(kParts, budget));
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t key = rng() % 5000;
      const WideCount<2> count{{rng() >> 2, 1}};
      ASSERT_TRUE(threads.back()->add(key % kParts, key, count));
      auto& [low, high] = expected[key];
      const std::uint64_t before = low;
      low += count.limb[0];
      high += 1 + (low < before ? 1 : 0);
    }
  }
  std::vector<const SuccessorBlocks<2>*> written;
  for (const auto& t : threads) written.push_back(t.get());
  std::uint64_t held = 0;
  for (const auto& t : threads) held += t->successors();
  EXPECT_EQ(held, 60000u);

  AggregationTable<2> table;
  Generation<2> g;
  g.parts.resize(kParts);
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> got;
  for (std::size_t p = 0; p < kParts; ++p) {
    bool overflow = false;
    ASSERT_TRUE(table.aggregate(written, p, g.parts[p], budget, overflow));
    EXPECT_FALSE(overflow);
    for (const auto& [key, count] : test::classes_of(g, p)) {
      EXPECT_EQ(key % kParts, p);
      EXPECT_FALSE(got.contains(key)) << "key " << key << " twice";
      got[key] = {count.limb[0], count.limb[1]};
    }
  }
  EXPECT_EQ(got, expected);
  EXPECT_GT(budget.used(), g.memory_bytes());  // blocks and the table are still held
  table.release(budget);
  threads.clear();  // the blocks' chunks go back to the budget, idle
  EXPECT_EQ(budget.used(), g.memory_bytes() + budget.idle_bytes());
  budget.drop_idle();
  EXPECT_EQ(budget.used(), g.memory_bytes());
}

// Successors take the bytes their counts need, so blocks end at varying fills: the counts
// and the entries visited must still be exact at every fill, block boundaries included, and
// for counts of every width, up to the widest.
TEST(SuccessorBlocks, CountsAndVisitsEveryEntryAcrossBlockBoundaries) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  const int a_block = static_cast<int>(SuccessorBlocks<1>::kBlockBytes / 9);  // counts < 128
  for (const int n : {0, 1, a_block - 1, a_block, a_block + 1, 3 * a_block, 3 * a_block + 5}) {
    SuccessorBlocks<1> blocks(3, budget);
    for (int i = 0; i < n; ++i) ASSERT_TRUE(blocks.add(1, 100 + i, WideCount<1>{{1}}));
    ASSERT_TRUE(blocks.add(2, 7, WideCount<1>{{1}}));
    EXPECT_EQ(blocks.successors(0), 0u);
    EXPECT_EQ(blocks.successors(1), static_cast<std::uint64_t>(n));
    EXPECT_EQ(blocks.successors(), static_cast<std::uint64_t>(n) + 1);
    EXPECT_EQ(blocks.written_bytes(), 9u * (static_cast<std::uint64_t>(n) + 1));
    std::vector<std::uint64_t> seen;
    blocks.for_each(1, [&](const SuccessorBlocks<1>::Entry& e) { seen.push_back(e.key); });
    std::sort(seen.begin(), seen.end());
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(seen[i], static_cast<std::uint64_t>(100 + i));
  }
}

template <int K>
void every_count_comes_back() {
  MemoryBudget budget(std::uint64_t{1} << 30);
  SuccessorBlocks<K> blocks(2, budget);
  std::mt19937_64 random(K);
  std::vector<std::pair<std::uint64_t, WideCount<K>>> added;
  for (int i = 0; i < 5000; ++i) {
    WideCount<K> c;
    // Every width, each of the count's layouts: under 128, under 16,512, a few bytes, limbs.
    const int bits = static_cast<int>(random() % (64 * K + 1));
    for (int b = 0; b < bits; b += 64) {
      const int keep = std::min(64, bits - b);
      c.limb[static_cast<std::size_t>(b / 64)] =
          keep == 64 ? random() : random() & ((std::uint64_t{1} << keep) - 1);
    }
    const std::uint64_t key = random();
    added.emplace_back(key, c);
    ASSERT_TRUE(blocks.add(static_cast<std::size_t>(i % 2), key, c));
  }
  std::vector<std::pair<std::uint64_t, WideCount<K>>> seen;
  for (std::size_t p = 0; p < 2; ++p) {
    blocks.for_each(
        p, [&](const typename SuccessorBlocks<K>::Entry& e) { seen.emplace_back(e.key, e.count); });
  }
  EXPECT_EQ(blocks.successors(), added.size());
  ASSERT_EQ(seen.size(), added.size());
  auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::sort(added.begin(), added.end(), by_key);
  std::sort(seen.begin(), seen.end(), by_key);
  for (std::size_t i = 0; i < added.size(); ++i) {
    EXPECT_EQ(seen[i].first, added[i].first);
    EXPECT_TRUE(seen[i].second == added[i].second) << "successor " << i;
  }
}

TEST(SuccessorBlocks, EveryCountComesBackAtEveryWidth) {
  every_count_comes_back<1>();
  every_count_comes_back<2>();
  every_count_comes_back<16>();
}

// A count that no longer fits its limbs is reported, never wrapped in silence.
TEST(Aggregation, ACountPastItsLimbsIsReported) {
  MemoryBudget budget(std::uint64_t{1} << 26);
  SuccessorBlocks<1> blocks(1, budget);
  ASSERT_TRUE(blocks.add(0, 42, WideCount<1>{{~std::uint64_t{0}}}));
  ASSERT_TRUE(blocks.add(0, 42, WideCount<1>{{1}}));
  AggregationTable<1> table;
  Generation<1>::Part out;
  bool overflow = false;
  ASSERT_TRUE(table.aggregate({&blocks}, 0, out, budget, overflow));
  EXPECT_TRUE(overflow);
  EXPECT_GT(table.bytes(), 0u);
  table.release(budget);
  EXPECT_EQ(table.bytes(), 0u);  // the slots' memory itself is freed, not only the budget's
}

// Blocks come out of the budget: past it, `add` fails instead of allocating; so does an
// aggregation whose table does not fit.
TEST(Aggregation, TheBudgetBoundsBlocksAndTables) {
  MemoryBudget tiny(std::size_t{32} << 10);  // half of the smallest chunk
  SuccessorBlocks<1> refused(4, tiny);
  EXPECT_FALSE(refused.add(0, 1, WideCount<1>{{1}}));
  EXPECT_TRUE(tiny.exceeded());

  MemoryBudget budget((std::size_t{64} << 10) + 1000);
  SuccessorBlocks<1> blocks(1, budget);
  ASSERT_EQ(budget.chunk_bytes(), std::size_t{64} << 10);
  for (std::uint64_t key = 0; key < 200; ++key) ASSERT_TRUE(blocks.add(0, key, WideCount<1>{{1}}));
  AggregationTable<1> table;  // 512 slots of 16 bytes: more than the 1000 bytes left
  Generation<1>::Part out;
  bool overflow = false;
  EXPECT_FALSE(table.aggregate({&blocks}, 0, out, budget, overflow));
  EXPECT_EQ(out.size(), 0u);
  blocks.clear();  // its chunk stays with the budget, idle, and is freed for a reservation
  EXPECT_EQ(budget.idle_bytes(), std::size_t{64} << 10);
  EXPECT_EQ(budget.used(), budget.idle_bytes());
  EXPECT_TRUE(budget.reserve(budget.limit()));
  EXPECT_EQ(budget.idle_bytes(), 0u);
  budget.release(budget.limit());
  EXPECT_EQ(budget.used(), 0u);
}

// With the classes' slots given, a part comes out with the classes of one type pattern
// together (the next step expands them one after another), and still with the right sums.
// Keys of 40 type patterns of kGroupSlots slots (types in the low 12 bits) with mates above
// them: 6,000 successors, about 3,000 distinct keys. Returns each key's expected sum.
constexpr int kGroupSlots = 6;
std::map<std::uint64_t, std::uint64_t> add_patterned_successors(SuccessorBlocks<1>& blocks) {
  std::mt19937_64 rng(11);
  std::vector<std::uint64_t> patterns;
  for (int i = 0; i < 40; ++i) patterns.push_back(rng() & 0xfff);
  std::map<std::uint64_t, std::uint64_t> expected;
  for (int i = 0; i < 6000; ++i) {
    const std::uint64_t key = patterns[rng() % patterns.size()] | ((rng() % 80) << 12);
    EXPECT_TRUE(blocks.add(0, key, WideCount<1>{{1}}));
    ++expected[key];
  }
  return expected;
}

// A part's classes and sums, and how many stretches of one type pattern it has.
std::pair<std::map<std::uint64_t, std::uint64_t>, std::size_t> sums_and_runs(
    const Generation<1>::Part& out) {
  std::map<std::uint64_t, std::uint64_t> got;
  std::size_t runs = 0;
  const auto classes = test::classes_of_part<1>(out);
  for (std::size_t i = 0; i < classes.size(); ++i) {
    got[classes[i].first] = classes[i].second.limb[0];
    if (i == 0 || type_pattern(classes[i].first, kGroupSlots) !=
                      type_pattern(classes[i - 1].first, kGroupSlots))
      ++runs;
  }
  return {got, runs};
}

// A part comes out with the classes of one type pattern together, and the copy that
// grouping takes is counted in the budget and given back with the table.
TEST(Aggregation, GroupsAPartsClassesByTypePattern) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  SuccessorBlocks<1> blocks(1, budget);
  const auto expected = add_patterned_successors(blocks);
  AggregationTable<1> table;
  Generation<1>::Part out;
  bool overflow = false;
  const std::uint64_t before = budget.used();
  ASSERT_TRUE(table.aggregate({&blocks}, 0, out, budget, overflow, kGroupSlots));
  const auto [got, runs] = sums_and_runs(out);
  EXPECT_EQ(got, expected);
  // 36 distinct patterns (after ends are merged) in 1,024 buckets: a run each, and where
  // two share a bucket their classes interleave (one pair here). In the table's order
  // nearly every class would start a run.
  EXPECT_LT(runs, out.size() / 10);
  EXPECT_GT(out.size(), 2000u);
  // 16,384 slots, the grouping's copy of 2/3 of them, and the part writer's scratch.
  EXPECT_GT(table.bytes(), (16384u + 16384u - 16384u / 3) * 16u);
  EXPECT_LT(table.bytes(), (16384u + 16384u - 16384u / 3) * 16u + (100u << 10));
  // The part is compact: a few bytes a class (36 patterns, mates in 7 bits, counts of 1-3).
  EXPECT_LT(out.memory_bytes(), out.size() * 4);
  EXPECT_EQ(budget.used(), before + table.bytes() + out.memory_bytes());
  table.release(budget);
  EXPECT_EQ(budget.used(), before + out.memory_bytes());
}

// Where the budget holds the table and the part but not the grouping's copy, the part comes
// out right and still grouped (in place), and the budget is not reported exceeded. Grouping is
// not only for speed: a part out of pattern order takes several times the bytes.
TEST(Aggregation, APartIsGroupedInPlaceWhereTheBudgetHasNoRoomForTheCopy) {
  constexpr std::uint64_t kChunk = std::uint64_t{64} << 10;
  constexpr std::uint64_t kTable = std::uint64_t{16384} * 16;
  constexpr std::uint64_t kPartAtMost = 6000 * Generation<1>::kClassBytes;
  MemoryBudget budget(kTable + kPartAtMost + 2 * kChunk);  // blocks: 1 chunk
  SuccessorBlocks<1> blocks(1, budget);
  ASSERT_EQ(budget.chunk_bytes(), kChunk);
  const auto expected = add_patterned_successors(blocks);
  ASSERT_EQ(blocks.bytes(), kChunk);
  AggregationTable<1> table;
  Generation<1>::Part out;
  bool overflow = false;
  ASSERT_TRUE(table.aggregate({&blocks}, 0, out, budget, overflow, kGroupSlots));
  const auto [got, runs] = sums_and_runs(out);
  EXPECT_EQ(got, expected);
  EXPECT_LT(runs, out.size() / 10);
  EXPECT_FALSE(budget.exceeded());
  EXPECT_GT(table.bytes(), kTable);  // and the writer's scratch: no copy
  EXPECT_LT(table.bytes(), kTable + (100u << 10));
  EXPECT_LE(budget.peak(), budget.limit());
}

}  // namespace
}  // namespace knightstour
