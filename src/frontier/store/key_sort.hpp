#pragma once

// Sorting a buffer of successors by key: a least-significant-digit radix sort, 8 bits a
// pass, over only the bits where the keys differ.
//
// Why not std::sort: a record of successor files (successor_files.hpp) is a buffer of up to
// 65,536 successors sorted before it is written, and std::sort's comparisons, half of them
// mispredicted, took a fifth of a spilling count's CPU (7x8 closed in 150 MB:
// docs/speed.md (compact-successors.md)). One read counts the digits of every pass; each
// pass then scatters the entries once, never branching on a key: about 4 ns an entry a
// pass here, against 65 ns an entry for std::sort of 65,536 entries (11 bits a digit did no
// better).

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace knightstour {

// Sorts entries [first, first + n) by their `key` member (an unsigned 64-bit value),
// ascending; `scratch` has room for n entries. Stable: entries with equal keys keep their
// order.
template <class Entry>
void sort_by_key(Entry* first, std::size_t n, Entry* scratch) {
  if (n < 2) return;
  std::uint64_t differ = 0;
  for (std::size_t i = 1; i < n; ++i) differ |= first[i].key ^ first[0].key;
  if (differ == 0) return;
  constexpr int kDigitBits = 8;
  constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;
  constexpr std::uint64_t kMask = kDigits - 1;
  constexpr int kMostPasses = (64 + kDigitBits - 1) / kDigitBits;
  const int low = std::countr_zero(differ);
  const int high = 64 - std::countl_zero(differ);  // one past the highest bit that differs
  const int passes = (high - low + kDigitBits - 1) / kDigitBits;
  // Every pass's counts in one read of the entries; then each pass only scatters.
  std::array<std::array<std::size_t, kDigits>, kMostPasses> at{};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = first[i].key >> low;
    for (int p = 0; p < passes; ++p) ++at[p][(key >> (p * kDigitBits)) & kMask];
  }
  Entry* from = first;
  Entry* to = scratch;
  for (int p = 0; p < passes; ++p) {
    std::size_t sum = 0;
    for (std::size_t& a : at[p]) sum += std::exchange(a, sum);
    const int shift = low + p * kDigitBits;
    for (std::size_t i = 0; i < n; ++i) to[at[p][(from[i].key >> shift) & kMask]++] = from[i];
    std::swap(from, to);
  }
  if (from != first) std::copy(from, from + n, first);
}

}  // namespace knightstour
