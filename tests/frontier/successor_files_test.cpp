#include "knightstour/frontier/successor_files.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using Entry = SuccessorWriter<1>::Entry;

// What range r's file holds, as sorted (key, count) pairs.
std::vector<std::pair<std::uint64_t, std::uint64_t>> read_back(const SuccessorFiles& files,
                                                               std::size_t r) {
  std::vector<Entry> entries(files.bytes(r) / sizeof(Entry));
  if (!entries.empty()) files.read(r, 0, entries.data(), entries.size() * sizeof(Entry));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const Entry& e : entries) out.emplace_back(e.key, e.count.limb[0]);
  std::sort(out.begin(), out.end());
  return out;
}

// Many threads append to the same range files at once, each through its own small buffers;
// every successor lands in its part's range exactly once, whatever the interleaving, and
// nothing is left in the directory (the files are unlinked at creation).
TEST(SuccessorFiles, EverySuccessorLandsInItsRangeOnce) {
  test::TempDir dir;
  SpillArea area(dir.path());
  constexpr std::size_t kParts = 16, kRanges = 3;
  std::vector<std::uint32_t> range_of(kParts);
  for (std::size_t p = 0; p < kParts; ++p)
    range_of[p] = static_cast<std::uint32_t>(p * kRanges / kParts);
  SuccessorFiles files(area, kRanges);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  MemoryBudget budget(1 << 20);
  constexpr std::uint64_t kKeys = 200000;
  tbb::parallel_for(std::uint64_t{0}, std::uint64_t{8}, [&](std::uint64_t writer_index) {
    SuccessorWriter<1> writer(files, range_of, 37, budget);  // odd size: partial buffers
    for (std::uint64_t key = writer_index; key < kKeys; key += 8)
      writer.add(key % kParts, key, WideCount<1>{{key * 3}});
    writer.flush();
    EXPECT_EQ(writer.successors(), (kKeys - writer_index + 7) / 8);
  });
  EXPECT_EQ(budget.used(), 0u);  // the writers' buffers were given back
  std::uint64_t total = 0;
  for (std::size_t r = 0; r < kRanges; ++r) {
    const auto got = read_back(files, r);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> want;
    for (std::uint64_t key = 0; key < kKeys; ++key)
      if (range_of[key % kParts] == r) want.emplace_back(key, key * 3);
    EXPECT_EQ(got, want) << "range " << r;
    total += got.size();
  }
  EXPECT_EQ(total, kKeys);
  EXPECT_EQ(area.bytes_written(), kKeys * sizeof(Entry));
  files.drop(0);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Reading past what a range's file holds is an error, never a silent short read.
TEST(SuccessorFiles, ReadingPastTheEndFails) {
  test::TempDir dir;
  SpillArea area(dir.path());
  SuccessorFiles files(area, 1);
  const std::uint64_t word = 42;
  files.append(0, &word, sizeof word);
  std::uint64_t two[2];
  EXPECT_THROW(files.read(0, 0, two, sizeof two), IoError);
}

}  // namespace
}  // namespace knightstour
