#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/generation_store.hpp"
#include "support/mapped_files.hpp"
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
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // its name is gone from the start

  const Generation<2> wide = widened(std::move(g), budget, &area);

  EXPECT_EQ(budget.used(), 0u);
  EXPECT_TRUE(wide.parts[0].in_file());
  ASSERT_EQ(wide.size(), 1000u);
  std::uint64_t seen = 0;
  for (const auto& part : wide.parts) {
    std::vector<std::uint64_t> keys(part.size());
    std::vector<WideCount<2>> counts(part.size());
    part.read_keys(0, part.size(), keys.data());
    part.read_counts(0, part.size(), counts.data());
    for (std::size_t i = 0; i < part.size(); ++i, ++seen) {
      const WideCount<2>& count = counts[i];
      const std::uint64_t original = keys[i] / 7;
      EXPECT_EQ(count.limb[0] + original, ~std::uint64_t{0});
      EXPECT_EQ(count.limb[1], 0u);
    }
  }
  EXPECT_EQ(seen, 1000u);
}

// A part in a file is read with pread a chunk at a time, never mapped (a mapped 8x8
// generation put its page cache into the process's resident memory): every range of
// classes, across the buffer's chunk boundaries, reads back what was spilled, the buffer is
// charged to the budget while held, and no file under the spill directory is mapped.
TEST(Generation, SpilledPartsAreReadInChunksWithoutMapping) {
  test::TempDir dir;
  SpillArea area(dir.path());
  constexpr std::size_t kChunk = ClassBuffer<1>::kClasses;
  const std::size_t n = 2 * kChunk + 123;
  Generation<1> g;
  g.parts.resize(1);
  for (std::uint64_t i = 0; i < n; ++i) {
    g.parts[0].keys.push_back(3 * i + 1);
    g.parts[0].counts.push_back(WideCount<1>{{i * i}});
  }
  MemoryBudget budget(std::uint64_t{1} << 24);
  ASSERT_TRUE(budget.reserve(g.memory_bytes()));
  spill_parts(g, area, budget);
  ASSERT_TRUE(g.parts[0].in_file());
  ASSERT_EQ(budget.used(), 0u);

  const auto& part = g.parts[0];
  for (const auto& [begin, end] : std::vector<std::pair<std::size_t, std::size_t>>{
           {0, n}, {5, kChunk + 7}, {kChunk - 1, kChunk + 1}, {n - 3, n}, {17, 17}}) {
    ClassBuffer<1> buffer(&budget);
    std::size_t next = begin;
    std::size_t calls = 0;
    part.for_each_chunk(begin, end, buffer,
                        [&](const std::uint64_t* keys, const WideCount<1>* counts, std::size_t m) {
                          EXPECT_LE(m, kChunk);
                          EXPECT_EQ(budget.used(), kChunk * Generation<1>::kClassBytes);
                          for (std::size_t i = 0; i < m; ++i, ++next) {
                            EXPECT_EQ(keys[i], 3 * next + 1);
                            EXPECT_EQ(counts[i].limb[0], next * next);
                          }
                          ++calls;
                        });
    EXPECT_EQ(next, end) << begin << ".." << end;
    EXPECT_EQ(calls, (end - begin + kChunk - 1) / kChunk);
    EXPECT_EQ(test::mappings_under(dir.path()), 0);
  }
  EXPECT_EQ(budget.used(), 0u);  // each buffer gave its bytes back
  std::vector<std::uint64_t> keys(4);
  part.read_keys(n - 4, 4, keys.data());
  EXPECT_EQ(keys, (std::vector<std::uint64_t>{3 * (n - 4) + 1, 3 * (n - 3) + 1, 3 * (n - 2) + 1,
                                              3 * (n - 1) + 1}));
  std::vector<WideCount<1>> counts(2);
  EXPECT_THROW(part.read_counts(n - 1, 2, counts.data()), IoError);  // past the file's end
}

}  // namespace
}  // namespace knightstour
