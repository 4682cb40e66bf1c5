#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "knightstour/board/bitboard.hpp"
#include "knightstour/board/board.hpp"

namespace knightstour {

// Version of the rules that decide which partial paths are dead. Prefix ids depend on it, so
// it is recorded in every manifest; bump it whenever legal_moves() or make_state() change.
inline constexpr int kPruningRulesVersion = 1;

// Per-square counters 0..15 stored bit-sliced: bit s of plane k is bit k of square s's counter,
// so "decrement every square in a mask" costs a handful of word operations.
struct DegreePlanes {
  Bitboard p0 = 0, p1 = 0, p2 = 0, p3 = 0;

  Bitboard zero() const { return ~(p0 | p1 | p2 | p3); }
  Bitboard one() const { return p0 & ~(p1 | p2 | p3); }

  // Subtracts 1 from every square in `mask`; those counters must be >= 1.
  void decrement(Bitboard mask) {
    const Bitboard b1 = mask & ~p0;
    p0 ^= mask;
    const Bitboard b2 = b1 & ~p1;
    p1 ^= b1;
    const Bitboard b3 = b2 & ~p2;
    p2 ^= b2;
    p3 ^= b3;
  }

  int get(int square) const {
    return static_cast<int>(((p0 >> square) & 1) | (((p1 >> square) & 1) << 1) |
                            (((p2 >> square) & 1) << 2) | (((p3 >> square) & 1) << 3));
  }
};

// A node of the pruned search: the path so far ends at `head`.
//
// Invariant (the pruning rules, version 1). For a free square f let
// e(f) = (free neighbours of f) + (1 if f is next to the head): the squares a tour could
// still link f to. Every free f has e(f) >= 1; a square with e(f) == 1 can only be the
// last square of the tour, so at most one exists and it is `end`. In closed mode the start
// square is put back into `free` as the square that must come last (it closes the cycle),
// so `end` is the start from the root on, and no other square may have e(f) == 1.
struct SearchState {
  Bitboard free = 0;    // squares not yet visited (+ the start, in closed mode)
  DegreePlanes degree;  // for each free square: how many of its neighbours are free
  Bitboard end = 0;     // the square that has to be last, if already known (0 or 1 bit)
  int head = 0;         // last square of the path so far
  int remaining = 0;    // popcount(free)
};

struct MoveSet {
  Bitboard moves = 0;     // children that can still lead to a tour, ascending = canonical order
  Bitboard critical = 0;  // head neighbours that become the forced end unless visited next
};

// Children of a node with remaining >= 2, after the pruning rules. A node with no legal
// move is dead. Rules, each provably loses no tour:
//  - a free neighbour of the head with no other free neighbour is dead weight: it could
//    only be entered from the head and then the path is stuck (remaining >= 2);
//  - a free neighbour c with exactly one other free neighbour ("critical") becomes an end
//    (e(c) == 1) when the head moves elsewhere; at most one end may exist, and a critical
//    square can only be the end when the parity of the remaining path allows it (the
//    colours alternate, so with an even number of squares left the next square and the
//    last one differ in colour), otherwise it must be the next square.
inline MoveSet legal_moves(const Bitboard* neighbours, const SearchState& s) {
  const Bitboard near = neighbours[s.head] & s.free;
  if (near & s.degree.zero()) return {};
  const Bitboard critical = near & s.degree.one() & ~s.end;
  Bitboard moves = near & ~s.end;
  if (critical != 0) {
    if (s.end != 0 || (s.remaining & 1) == 0) {
      if (without_lowest(critical) != 0) return {};
      moves = critical;
    } else {
      const int n = popcount(critical);
      if (n > 2) return {};
      if (n == 2) moves = critical;
    }
  }
  return {moves, critical};
}

inline void play(const Bitboard* neighbours, const SearchState& s, int square, Bitboard critical,
                 SearchState& child) {
  child.free = s.free & ~bit(square);
  child.degree = s.degree;
  child.degree.decrement(neighbours[square] & child.free);
  child.end = s.end | (critical & ~bit(square));
  child.head = square;
  child.remaining = s.remaining - 1;
}

// The state after following `path` (a knight path without repeats, path[0] = start), or
// nothing when the rules already prove that no tour extends it (including the colour
// count: on a board with an odd number of squares a tour starts on the majority colour).
std::optional<SearchState> make_state(const Board& board, std::span<const std::uint8_t> path,
                                      bool closed);

}  // namespace knightstour
