#pragma once

#include <cstdint>
#include <optional>

#include "knightstour/base/shard.hpp"
#include "knightstour/board/board.hpp"

namespace knightstour {

// How an all-starts job counts the open tours from each square (the grid).
enum class GridMethod {
  automatic,      // the backward pass where it pays and can run (grid_by_backward_pass)
  pinned_tails,   // a shared prefix and one pinned sweep per class of start squares
  backward_pass,  // one unpinned sweep and a pass back over it (backward_pass.hpp)
  // One sweep per class of (start, end) pairs, both pinned (end_pair_units.hpp): independent
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
};

}  // namespace knightstour
