#include "frontier/store/successor_files.hpp"

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

// Keys of classes of 6 slots: a type pattern in the low 12 bits (no class is checked here:
// the files only group keys by their low bits), the rest the key's own.
std::uint64_t key_of(std::uint64_t i) { return (i % 37) | (i / 37) << 12; }

// What range r's file holds, as sorted (key, count) pairs.
std::vector<std::pair<std::uint64_t, std::uint64_t>> read_back(const SuccessorFiles& files,
                                                               std::size_t r) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  ClassBuffer<1> buffer;
  for (const auto& record : files.records(r)) {
    read_successor_record<1>(files, r, record, buffer,
                             [&](std::uint64_t key, const WideCount<1>& count) {
                               out.emplace_back(key, count.limb[0]);
                             });
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One range's file in a fresh folder, for parts 0 and 1, and a budget for a writer's buffers.
struct OneRangeFile {
  test::TempDir dir;
  SpillArea area{dir.path()};
  SuccessorFiles files{area, 1};
  MemoryBudget budget{std::uint64_t{1} << 24};
  const std::vector<std::uint32_t> range_of{0, 0};
};

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
    // Odd size: partial buffers.
    SuccessorWriter<1> writer(files, range_of, 37, 6, budget);
    for (std::uint64_t i = writer_index; i < kKeys; i += 8)
      writer.add(i % kParts, key_of(i), WideCount<1>{{i * 3}});
    writer.flush();
    EXPECT_EQ(writer.successors(), (kKeys - writer_index + 7) / 8);
  });
  EXPECT_EQ(budget.used(), 0u);  // the writers' buffers were given back
  std::uint64_t total = 0;
  for (std::size_t r = 0; r < kRanges; ++r) {
    const auto got = read_back(files, r);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> want;
    for (std::uint64_t i = 0; i < kKeys; ++i)
      if (range_of[i % kParts] == r) want.emplace_back(key_of(i), i * 3);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "range " << r;
    EXPECT_EQ(files.successors(r), want.size()) << "range " << r;
    total += got.size();
  }
  EXPECT_EQ(total, kKeys);
  files.drop(0);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Sorted by type pattern, a record's keys differ in a few bits and small counts take a byte:
// a successor takes a few bytes, not 16.
TEST(SuccessorFiles, ARecordTakesAFewBytesASuccessor) {
  OneRangeFile f;
  constexpr std::uint64_t kKeys = 100000;
  {
    SuccessorWriter<1> writer(f.files, f.range_of, 4096, 6, f.budget);
    for (std::uint64_t i = 0; i < kKeys; ++i) writer.add(0, key_of(i), WideCount<1>{{i % 100}});
    writer.flush();
  }
  EXPECT_EQ(read_back(f.files, 0).size(), kKeys);
  EXPECT_LT(f.area.bytes_written(), kKeys * 4);
}

// A buffer's equal keys are merged into one record entry holding their sum, unless the sum
// outgrows the count's limbs; the file still says how many successors were written.
TEST(SuccessorFiles, EqualKeysMergeUnlessTheirSumOverflows) {
  OneRangeFile f;
  const std::uint64_t big = ~std::uint64_t{0} - 1;
  {
    SuccessorWriter<1> writer(f.files, f.range_of, 64, 6, f.budget);
    for (int i = 0; i < 5; ++i) writer.add(0, 7, WideCount<1>{{10}});
    writer.add(0, 9, WideCount<1>{{big}});
    writer.add(0, 9, WideCount<1>{{3}});  // big + 3 does not fit 64 bits
    writer.add(0, 8, WideCount<1>{{1}});
    writer.flush();
  }
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want{
      {7, 50}, {8, 1}, {9, 3}, {9, big}};
  EXPECT_EQ(read_back(f.files, 0), want);
  EXPECT_EQ(f.files.successors(0), 8u);
}

// Wide counts (several limbs) come back whole.
TEST(SuccessorFiles, WideCountsComeBackWhole) {
  OneRangeFile f;
  {
    SuccessorWriter<3> writer(f.files, f.range_of, 5, 6, f.budget);
    for (std::uint64_t i = 0; i < 23; ++i)
      writer.add(i % 2, key_of(i), WideCount<3>{{i, i == 4 ? 0 : ~i, i * i}});
    writer.flush();
  }
  std::vector<std::uint64_t> seen;
  ClassBuffer<3> buffer;
  for (const auto& record : f.files.records(0)) {
    read_successor_record<3>(f.files, 0, record, buffer,
                             [&](std::uint64_t key, const WideCount<3>& count) {
                               const std::uint64_t i = count.limb[0];
                               EXPECT_EQ(key, key_of(i));
                               EXPECT_EQ(count.limb[1], i == 4 ? 0 : ~i);
                               EXPECT_EQ(count.limb[2], i * i);
                               seen.push_back(i);
                             });
  }
  std::sort(seen.begin(), seen.end());
  ASSERT_EQ(seen.size(), 23u);
  for (std::uint64_t i = 0; i < 23; ++i) EXPECT_EQ(seen[i], i);
}

// A record whose bytes are not what a writer wrote is an error, never a silent misread.
TEST(SuccessorFiles, AMalformedRecordIsRefused) {
  OneRangeFile f;
  const std::uint32_t blocks[2] = {3, 1000};  // three blocks, the first 1000 bytes long
  f.files.append(0, blocks, sizeof blocks, 1);
  ClassBuffer<1> buffer;
  EXPECT_THROW(read_successor_record<1>(f.files, 0, f.files.records(0).front(), buffer,
                                        [](std::uint64_t, const WideCount<1>&) {}),
               std::runtime_error);
}

// Reading past what a range's file holds is an error, never a silent short read.
TEST(SuccessorFiles, ReadingPastTheEndFails) {
  test::TempDir dir;
  SpillArea area(dir.path());
  SuccessorFiles files(area, 1);
  const std::uint64_t word = 42;
  files.append(0, &word, sizeof word, 1);
  std::uint64_t two[2];
  EXPECT_THROW(files.read(0, 0, two, sizeof two), IoError);
}

}  // namespace
}  // namespace knightstour
