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

// How an all-starts job counts the open tours from each square (the grid).
enum class GridMethod {
  automatic,      // the backward pass where it pays and can run (grid_by_backward_pass)
  pinned_tails,   // a shared prefix and one pinned sweep per class of start squares
  backward_pass,  // one unpinned sweep and a pass back over it (backward_pass.hpp)
  // One sweep per class of (start, end) pairs, both pinned (EndPairUnit, below): independent
  // units that shards share out; gives the start x end table too. Never chosen automatically.
  end_pairs,
};

// A grid method as output names it: "pinned tails", "backward pass", "end pairs" (JSON's
// grid_method, docs/formats.md), or "automatic".
constexpr const char* grid_method_name(GridMethod g) {
  switch (g) {
    case GridMethod::pinned_tails:
      return "pinned tails";
    case GridMethod::backward_pass:
      return "backward pass";
    case GridMethod::end_pairs:
      return "end pairs";
    case GridMethod::automatic:
      break;
  }
  return "automatic";
}

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

// What the units' counts add up to (directed tours; see EndPairUnit).
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

// What `count --method frontier` is asked: the numbers the enumerator gives for a start
// square or for all starts, on any board whose shorter side is at most 8.
struct FrontierRequest {
  BoardShape shape;
  bool closed = false;
  std::optional<std::int64_t> start;  // board square (r * cols + c); else all starts
  // With start, open: only the tours from the start ending on this board square, by one
  // sweep with both ends pinned (no closed sweep: its cycles are not counted).
  std::optional<std::int64_t> end = std::nullopt;
  bool total_only = false;  // all starts, open: the total, not the tours by start
  // Open jobs, for estimates only: leave out the closed sweep that an open job runs first
  // (the report's closed counts stay zero), so that a short calibration sees the open
  // sweeps, which hold most of the classes (on 8x8 the unpinned open sweep holds 15 to 23
  // times the closed one's classes at the same step). No journal: sweep numbers would shift.
  bool open_sweeps_only = false;
  // Closed, or open total_only: the board's rows across and every length from 1 to its
  // columns, each counted as that board alone would be (row_sweeps.hpp), in one job.
  bool every_length = false;
  GridMethod grid = GridMethod::automatic;  // all starts, open, not total_only
  // end_pairs only: count the units of this shard (unit_in_shard); the counts are then that
  // shard's share. The rule is the enumerator's and plays no part.
  Shard shard = {};
  bool sharded() const { return shard.sharded(); }
  // A prime: count modulo it (0: exactly). Every count reported is then its residue, and a
  // class holds one limb whatever the count's size (ModularCounts). One process (no MPI
  // ranks); the grid by pinned tails only (the backward pass and end pairs divide counts).
  std::uint64_t modulus = 0;
};

}  // namespace knightstour
