#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "knightstour/base/shard.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// The open tours over all starts, split by their two ends into independent work units.
//
// A symmetry g of the board maps the tours from s to t onto the tours from g(s) to g(t), and
// read backwards a tour from s to t is one from t to s: every ordered pair (s, t) of an orbit
// of the board's symmetries and reversal has as many tours. A unit is such an orbit; one sweep
// with both ends pinned (FrontierTarget::pinned_end) counts its pairs' tours, and the job's
// counts are sums over units: tours from s = sum over t of N(s, t), the closed ones among
// them those with t a knight's move from s (a path whose ends are adjacent closes).
//
// Pairs that cannot hold a tour are left out: on a board with an even number of squares a
// tour's ends have opposite colours; on an odd one both lie on the majority colour.
// 8x8 has 136 units (the split Chernov and Stertenbrink counted A165134 by).
struct EndPairUnit {
  int id = 0;  // its place in end_pair_units(): the same for the same board on every machine
  std::int64_t start = 0;  // the pair swept: the orbit's least pair (board squares)
  std::int64_t end = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;  // the orbit: every (s, t) in it
};

// The board's units, ordered by their least pair. Throws UsageError past kMaxEndPairSquares
// squares (the units grow as the square of the board).
inline constexpr std::int64_t kMaxEndPairSquares = 1024;
std::vector<EndPairUnit> end_pair_units(BoardShape shape);

// The units of a shard: unit k goes to shard k mod count. Nothing cheap
// tells a unit's cost before its sweep runs, so shards of several units end unevenly; one
// unit a shard, a few at a time, evens them out (results/frontier/unit-dealing.md).
bool unit_in_shard(int unit, const Shard& shard);
// How many of `units` units (ids 0 ... units - 1) the shard gets.
int units_in_shard(int units, const Shard& shard);
// The ids of those units in the order a shard counts them, spread over the board's (their
// ranks bit-reversed: the first, then the one half-way, a quarter, three quarters, ...): units
// near in id are near in kind (the corner pairs come first), so the first units counted are a
// sample of all, and a projection from them (a progress line's, estimate's) is not the corners'.
std::vector<int> spread_order(int units, const Shard& shard);

// What the units' counts add up to (directed tours; see end_pair_units.hpp).
struct EndPairCounts {
  BigCount tours;
  BigCount closed_tours;
  std::vector<BigCount> tours_by_start;      // per board square
  std::vector<BigCount> closed_by_start;     // per board square
  std::vector<BigCount> tours_by_start_end;  // [s * squares + t]
  std::optional<BigCount> cycles;            // when every unit is counted: closed from a1 / 2
};
// `by_unit`: unit id -> its count (each pair's), for some or all of `units`; ids not among
// them are a std::logic_error. On a board of one square (no units) the one tour is counted
// in shard 0's share (`shard_index`: whose share `by_unit` is; 0 for the whole job).
EndPairCounts end_pair_counts(BoardShape shape, const std::vector<EndPairUnit>& units,
                              const std::map<int, BigCount>& by_unit, int shard_index = 0);

}  // namespace knightstour
