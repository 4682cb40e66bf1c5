#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "frontier/store/generation_store.hpp"
#include "support/mapped_files.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

// The classes of g, in order, with their counts' low and second limbs.
template <int K>
std::vector<std::pair<std::uint64_t, WideCount<K>>> classes_of(const Generation<K>& g) {
  std::vector<std::pair<std::uint64_t, WideCount<K>>> out;
  g.for_each_class(
      [&](std::uint64_t key, const WideCount<K>& count) { out.emplace_back(key, count); });
  return out;
}

// Widening keeps every class and count, and the bytes and budget as they are: a count is
// held in the bytes its value needs, whatever the limbs.
TEST(Generation, WideningKeepsClassesBytesAndBudget) {
  Generation<1> g;
  g.parts.resize(2);
  for (std::size_t p = 0; p < 2; ++p) {
    std::vector<std::uint64_t> keys;
    std::vector<WideCount<1>> counts;
    for (std::uint64_t i = p; i < 5; i += 2) {
      keys.push_back(100 + i);
      counts.push_back(WideCount<1>{{~std::uint64_t{0} - i}});
    }
    g.parts[p] = part_of<1>(keys, counts);
  }
  const std::uint64_t bytes = g.memory_bytes();

  const Generation<2> wide = widened(std::move(g));

  EXPECT_EQ(wide.memory_bytes(), bytes);
  const auto seen = classes_of(wide);
  ASSERT_EQ(seen.size(), 5u);
  for (std::size_t at = 0; at < 5; ++at) {
    const std::uint64_t i = at < 3 ? 2 * at : 2 * (at - 3) + 1;  // part 0, then part 1
    EXPECT_EQ(seen[at].first, 100 + i);
    EXPECT_EQ(seen[at].second.limb[0], ~std::uint64_t{0} - i);
    EXPECT_EQ(seen[at].second.limb[1], 0u);
  }
}

// A generation in a spill file reads the same, holds only its index in the budget, and
// widens where it is (a step that overflows on a spilled generation must not pull it into
// memory).
TEST(Generation, SpilledPartsReadTheSameAndWidenOnDisk) {
  test::TempDir dir;
  SpillArea area(dir.path());
  Generation<1> g;
  g.parts.resize(3);
  std::vector<std::uint64_t> keys[3];
  std::vector<WideCount<1>> counts[3];
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const std::size_t p = i % 3 == 2 ? 2 : 0;  // part 1 stays empty
    keys[p].push_back(7 * i);
    counts[p].push_back(WideCount<1>{{~std::uint64_t{0} - i}});
  }
  for (std::size_t p = 0; p < 3; ++p) g.parts[p] = part_of<1>(keys[p], counts[p]);
  const std::uint64_t class_bytes = g.class_bytes();
  MemoryBudget budget(1 << 20);
  ASSERT_TRUE(budget.reserve(g.memory_bytes()));

  spill_parts(g, area, budget);

  // The bytes are freed, not only released from the budget; the index stays.
  for (const auto& part : g.parts) EXPECT_EQ(part.classes.bytes.capacity(), 0u);
  EXPECT_EQ(budget.used(), g.memory_bytes());
  EXPECT_LT(g.memory_bytes(), 100u);
  EXPECT_TRUE(g.parts[0].in_file());
  EXPECT_FALSE(g.parts[1].in_file());
  ASSERT_EQ(g.size(), 3000u);
  EXPECT_EQ(area.bytes_written(), class_bytes);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // its name is gone from the start

  const Generation<2> wide = widened(std::move(g));

  EXPECT_TRUE(wide.parts[0].in_file());
  const auto seen = classes_of(wide);
  ASSERT_EQ(seen.size(), 3000u);
  for (const auto& [key, count] : seen) {
    EXPECT_EQ(count.limb[0] + key / 7, ~std::uint64_t{0});
    EXPECT_EQ(count.limb[1], 0u);
  }
}

// A part in a file is read with pread a block at a time, never mapped (a mapped 8x8
// generation put its page cache into the process's resident memory): every range of
// classes, across block boundaries, reads back what was spilled, the buffer is charged to
// the budget while held, and no file under the spill directory is mapped.
TEST(Generation, SpilledPartsAreReadInBlocksWithoutMapping) {
  test::TempDir dir;
  SpillArea area(dir.path());
  constexpr std::size_t kBlock = CompactClasses::kBlockClasses;
  const std::size_t n = 2 * kBlock + 123;
  std::vector<std::uint64_t> keys;
  std::vector<WideCount<1>> counts;
  for (std::uint64_t i = 0; i < n; ++i) {
    keys.push_back(3 * i + 1);
    counts.push_back(WideCount<1>{{i * i}});
  }
  Generation<1> g;
  g.parts.push_back(part_of<1>(keys, counts));
  MemoryBudget budget(std::uint64_t{1} << 24);
  spill_parts(g, area, budget);  // releases what it holds: charge it first
  ASSERT_TRUE(g.parts[0].in_file());

  const auto& part = g.parts[0];
  MemoryBudget reading(std::uint64_t{1} << 24);
  for (const auto& [begin, end] : std::vector<std::pair<std::size_t, std::size_t>>{
           {0, n}, {5, kBlock + 7}, {kBlock - 1, kBlock + 1}, {n - 3, n}, {17, 17}}) {
    ClassBuffer<1> buffer(&reading);
    std::size_t next = begin;
    std::size_t calls = 0;
    part.for_each_chunk<1>(
        begin, end, buffer, [&](const std::uint64_t* k, const WideCount<1>* c, std::size_t m) {
          EXPECT_LE(m, kBlock);
          EXPECT_GE(reading.used(), m * Generation<1>::kClassBytes);  // charged while held
          for (std::size_t i = 0; i < m; ++i, ++next) {
            EXPECT_EQ(k[i], 3 * next + 1);
            EXPECT_EQ(c[i].limb[0], next * next);
          }
          ++calls;
        });
    EXPECT_EQ(next, end) << begin << ".." << end;
    const std::size_t blocks = end == begin ? 0 : (end - 1) / kBlock - begin / kBlock + 1;
    EXPECT_EQ(calls, blocks) << begin << ".." << end;
    EXPECT_EQ(test::mappings_under(dir.path()), 0);
  }
  EXPECT_EQ(reading.used(), 0u);  // each buffer gave its bytes back
}

}  // namespace
}  // namespace knightstour
