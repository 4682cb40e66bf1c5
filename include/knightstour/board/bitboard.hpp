#pragma once

#include <bit>
#include <cstdint>

namespace knightstour {

// A set of squares on a board of at most 64 squares: bit s is square index s.
using Bitboard = std::uint64_t;

constexpr Bitboard bit(int square) { return Bitboard{1} << square; }

constexpr int popcount(Bitboard b) { return std::popcount(b); }

// Index of the lowest set bit; b must not be 0.
constexpr int lowest(Bitboard b) { return std::countr_zero(b); }

constexpr Bitboard without_lowest(Bitboard b) { return b & (b - 1); }

// Calls f(square) for every set bit, ascending.
template <class F>
constexpr void for_each_square(Bitboard b, F&& f) {
  while (b != 0) {
    f(lowest(b));
    b = without_lowest(b);
  }
}

}  // namespace knightstour
