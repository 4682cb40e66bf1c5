// Where a step's classes go once it spills (step_spill.hpp): the generation it expands to
// files at once, with its budget freed; the one it builds, range by range; both read back
// as they were.
#include "frontier/store/step_spill.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "frontier/store/generation_store.hpp"
#include "support/temp_dir.hpp"

namespace knightstour::frontier_detail {
namespace {

using Classes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// A generation of `parts` parts, part p holding keys p*1000 + i, counts i + 1.
Generation<1> generation(std::size_t parts, MemoryBudget& budget) {
  Generation<1> g;
  for (std::size_t p = 0; p < parts; ++p) {
    std::vector<std::uint64_t> keys;
    std::vector<WideCount<1>> counts;
    for (std::uint64_t i = 0; i < 3000; ++i) {
      keys.push_back(p * 100000 + 7 * i);
      counts.push_back(WideCount<1>{{i + 1}});
    }
    g.parts.push_back(part_of<1>(keys, counts));
  }
  budget.charge(g.memory_bytes());
  return g;
}

Classes classes(const Generation<1>& g) {
  Classes out;
  g.for_each_class(
      [&](std::uint64_t key, const WideCount<1>& c) { out.emplace_back(key, c.limb[0]); });
  return out;
}

TEST(StepSpill, MovesBothGenerationsToFilesAndReadsThemBackTheSame) {
  test::TempDir dir;
  SpillArea area(dir.path());
  MemoryBudget budget(std::uint64_t{1} << 30);
  Generation<1> current = generation(5, budget);
  Generation<1> next = generation(8, budget);
  // Parts 2-7 of `next` are not built yet when the step starts to spill.
  const Classes next_want = classes(next);
  std::vector<ClassPart> later;
  for (std::size_t p = 2; p < 8; ++p) later.push_back(std::exchange(next.parts[p], ClassPart{}));
  const Classes current_want = classes(current);
  const std::uint64_t held = budget.used();

  StepSpill spill(area, budget);
  EXPECT_FALSE(spill.started());
  spill.start(current, next);
  EXPECT_TRUE(spill.started());
  EXPECT_TRUE(current.in_files());
  EXPECT_EQ(classes(current), current_want);
  EXPECT_LT(budget.used(), held);  // the bytes of current's parts and next's first two
  // The rest of `next`, built in two ranges, each spilled once built.
  for (std::size_t p = 2; p < 8; ++p) next.parts[p] = std::move(later[p - 2]);
  spill.spill(next, 2, 5);
  spill.spill(next, 5, 8);
  spill.finish(next);
  EXPECT_TRUE(next.in_files());
  EXPECT_EQ(classes(next), next_want);
  EXPECT_GT(area.bytes_written(), 0u);
}

// A sliced step sets its current generation aside a slice at a time: the parts of each slice
// go to files and their budget is freed at once; once pointed into their files (end_aside)
// the generation reads back as it was, its other parts still in memory; start() then moves
// only those.
TEST(StepSpill, SetsTheCurrentGenerationAsideASliceAtATime) {
  test::TempDir dir;
  SpillArea area(dir.path());
  MemoryBudget budget(std::uint64_t{1} << 30);
  Generation<1> current = generation(6, budget);
  Generation<1> next;
  const Classes want = classes(current);
  const std::uint64_t held = budget.used();
  const std::uint64_t two = current.parts[1].memory_bytes() + current.parts[2].memory_bytes();

  StepSpill spill(area, budget);
  spill.set_aside(current, 1, 2);
  spill.set_aside(current, 2, 3);
  EXPECT_LT(budget.used(), held - two * 9 / 10);  // only their indexes stay
  spill.end_aside(current);
  EXPECT_FALSE(spill.started());
  for (std::size_t p = 0; p < 6; ++p) EXPECT_EQ(current.parts[p].in_file(), p == 1 || p == 2);
  EXPECT_EQ(classes(current), want);
  const std::uint64_t written = area.bytes_written();
  EXPECT_GT(written, 0u);

  spill.start(current, next);
  EXPECT_TRUE(current.in_files());
  EXPECT_EQ(classes(current), want);
  EXPECT_GT(area.bytes_written(), written);
}

// start() points the parts set aside into their files before it moves the rest.
TEST(StepSpill, StartingToSpillEndsTheSettingAside) {
  test::TempDir dir;
  SpillArea area(dir.path());
  MemoryBudget budget(std::uint64_t{1} << 30);
  Generation<1> current = generation(4, budget);
  Generation<1> next;
  const Classes want = classes(current);
  StepSpill spill(area, budget);
  spill.set_aside(current, 0, 2);
  spill.start(current, next);
  EXPECT_TRUE(current.in_files());
  EXPECT_EQ(classes(current), want);
}

}  // namespace
}  // namespace knightstour::frontier_detail
