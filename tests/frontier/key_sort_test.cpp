#include "frontier/store/key_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace knightstour {
namespace {

struct Entry {
  std::uint64_t key;
  std::uint64_t order;  // where it was before the sort
};

// Sorted as std::stable_sort sorts them: by key, equal keys in their first order.
void expect_sorted_like_stable_sort(std::vector<Entry> entries) {
  std::vector<Entry> want = entries;
  std::stable_sort(want.begin(), want.end(),
                   [](const Entry& a, const Entry& b) { return a.key < b.key; });
  std::vector<Entry> scratch(entries.size());
  sort_by_key(entries.data(), entries.size(), scratch.data());
  ASSERT_EQ(entries.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(entries[i].key, want[i].key) << i;
    ASSERT_EQ(entries[i].order, want[i].order) << i;
  }
}

TEST(KeySort, SortsLikeAStableSortWhateverBitsTheKeysDifferIn) {
  std::mt19937_64 random(7);
  for (const std::size_t n : {0, 1, 2, 3, 100, 4097, 65536}) {
    for (const int bits : {1, 8, 9, 17, 45, 64}) {
      for (const int low : {0, 5, 64 - bits}) {
        SCOPED_TRACE(std::to_string(n) + " entries, " + std::to_string(bits) + " bits from " +
                     std::to_string(low));
        std::vector<Entry> entries(n);
        const std::uint64_t base = random();
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t r = bits == 64 ? random() : random() >> (64 - bits);
          // Few distinct values where n is large, so equal keys are common.
          entries[i] = {base ^ (((i % 3 == 0 ? r % 50 : r)) << low), i};
        }
        expect_sorted_like_stable_sort(entries);
      }
    }
  }
}

TEST(KeySort, EqualKeysStayAsTheyAre) {
  std::vector<Entry> entries;
  for (std::uint64_t i = 0; i < 10; ++i) entries.push_back({42, i});
  expect_sorted_like_stable_sort(entries);
  expect_sorted_like_stable_sort({{~std::uint64_t{0}, 0}, {0, 1}, {~std::uint64_t{0}, 2}, {0, 3}});
}

}  // namespace
}  // namespace knightstour
