#include "knightstour/frontier/ranks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "frontier/class/class_hash.hpp"

namespace knightstour {
namespace {

// Every rank gets its share of the classes, and so does every part: within one part (the top
// bits of the hash fixed) the ranks still split the classes evenly, so a rank's parts and
// aggregation tables stay evenly filled whatever the number of ranks.
TEST(OwnerRank, SpreadsClassesEvenlyWithinEveryPart) {
  constexpr int kPartBits = 6;
  for (int ranks : {1, 2, 3, 5, 7, 16}) {
    std::vector<std::vector<int>> held(1 << kPartBits, std::vector<int>(ranks, 0));
    constexpr int kKeys = 400000;
    for (std::uint64_t key = 0; key < kKeys; ++key) {
      const std::uint64_t h = class_hash(key * 0x9e3779b97f4a7c15ull + 12345);
      const int owner = owner_rank(h, ranks);
      ASSERT_GE(owner, 0);
      ASSERT_LT(owner, ranks);
      ++held[h >> (64 - kPartBits)][static_cast<std::size_t>(owner)];
    }
    const double share = static_cast<double>(kKeys) / (1 << kPartBits) / ranks;
    for (const auto& part : held) {
      for (int n : part) EXPECT_NEAR(n, share, 6 * std::sqrt(share) + 1) << ranks << " ranks";
    }
  }
}

// The owner depends on the hash alone: the same class goes to the same rank from every
// sender, and one rank owns everything when alone.
TEST(OwnerRank, IsAFunctionOfTheHash) {
  for (std::uint64_t h :
       {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{1} << 47, std::uint64_t{0xffff}}) {
    EXPECT_EQ(owner_rank(h, 1), 0);
    EXPECT_EQ(owner_rank(h, 9), owner_rank(h, 9));
  }
  EXPECT_EQ(owner_rank(~std::uint64_t{0}, 9), 8);
  EXPECT_EQ(owner_rank(0xffff, 9), 0);  // the low 16 bits (table slots) do not choose it
}

}  // namespace
}  // namespace knightstour
