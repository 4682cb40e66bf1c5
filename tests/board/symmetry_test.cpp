#include "knightstour/board/symmetry.hpp"

#include <gtest/gtest.h>

#include <set>

#include "knightstour/io/row_map.hpp"
#include "knightstour/plan/prefix_plan.hpp"
#include "knightstour/plan/work_list.hpp"
#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

TEST(Symmetry, GroupSizes) {
  EXPECT_EQ(board_symmetries(Board(6, 6)).size(), 8u);
  EXPECT_EQ(board_symmetries(Board(3, 4)).size(), 4u);
}

TEST(Symmetry, MapsKnightMovesToKnightMovesAndIsAPermutation) {
  for (const auto& b : {Board(6, 6), Board(3, 5), Board(8, 8)}) {
    for (const auto& g : board_symmetries(b)) {
      std::set<int> image;
      for (int s = 0; s < b.squares(); ++s) {
        image.insert(g(s));
        for_each_square(b.neighbours(s), [&](int t) { EXPECT_TRUE(b.adjacent(g(s), g(t))); });
      }
      EXPECT_EQ(static_cast<int>(image.size()), b.squares()) << g.name;
    }
  }
}

TEST(Symmetry, CornerStabilizerIsTheDiagonalMirror) {
  const Board b(6, 6);
  const std::vector<std::uint8_t> a1{0};
  const auto stab = path_stabilizer(b, a1);
  ASSERT_EQ(stab.size(), 2u);
  EXPECT_EQ(stab[1].name, "main diagonal");
  const std::vector<std::uint8_t> a1b3{0, 13};
  EXPECT_EQ(path_stabilizer(b, a1b3).size(), 1u);
  const Board rect(3, 4);
  EXPECT_EQ(path_stabilizer(rect, a1).size(), 1u);
}

TEST(Symmetry, TourCountsAreInvariant) {
  const Board b(5, 5);
  for (const auto& g : board_symmetries(b)) {
    for (int s = 0; s < b.squares(); ++s) {
      const auto here = test::kernel_count(b, {static_cast<std::uint8_t>(s)}, {});
      const auto there = test::kernel_count(b, {static_cast<std::uint8_t>(g(s))}, {});
      EXPECT_EQ(here.tours, there.tours);
      for (int e = 0; e < b.squares(); ++e) {
        EXPECT_EQ(here.by_end[static_cast<std::size_t>(e)],
                  there.by_end[static_cast<std::size_t>(g(e))]);
      }
    }
  }
}

TEST(RowMapper, EveryImplementationMapsLikeTheTable) {
  for (const auto& board : {Board(8, 8), Board(6, 6), Board(3, 5), Board(1, 1), Board(4, 16)}) {
    for (const auto& g : board_symmetries(board)) {
      for (const char* impl : RowMapper::available()) {
        const RowMapper map(g, board.squares(), impl);
        alignas(64) std::uint8_t in[64] = {};
        alignas(64) std::uint8_t out[64];
        for (int s = 0; s < board.squares(); ++s)
          in[s] = static_cast<std::uint8_t>((s * 7 + 3) % board.squares());
        std::fill(std::begin(out), std::end(out), 0xAB);
        map(in, out);
        for (int s = 0; s < board.squares(); ++s) {
          ASSERT_EQ(out[s], g(in[s]))
              << impl << " " << board.name() << " " << g.name << " square " << s;
        }
      }
    }
  }
  EXPECT_GE(RowMapper::available().size(), 1u);
}

TEST(WorkList, OrbitsCoverEveryWantedPrefixOnce) {
  const Board b(6, 6);
  std::vector<std::vector<std::uint8_t>> roots;
  for (int s = 0; s < 36; ++s) roots.push_back({static_cast<std::uint8_t>(s)});
  const PrefixPlan plan(b, roots, {}, 3);
  const auto group = board_symmetries(b);
  const auto items = build_work_list(plan, group, [](std::size_t id) { return id % 3 != 1; });
  std::vector<int> seen(plan.size(), 0);
  for (const auto& item : items) {
    for (const auto& m : item.members) {
      ++seen[m.id];
      std::vector<std::uint8_t> image(static_cast<std::size_t>(plan.length()));
      group[m.symmetry].apply(plan[item.searched], image.data());
      EXPECT_TRUE(std::equal(image.begin(), image.end(), plan[m.id].begin()));
      EXPECT_LE(item.searched, m.id);
    }
  }
  for (std::size_t id = 0; id < plan.size(); ++id) EXPECT_EQ(seen[id], id % 3 != 1 ? 1 : 0) << id;
  EXPECT_LT(items.size() * 6, plan.size());  // about an eighth is searched
}

}  // namespace
}  // namespace knightstour
