#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/frontier/frontier_counter.hpp"

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
  GridMethod grid = GridMethod::automatic;  // all starts, open, not total_only
  // end_pairs only: count the units of shard shard_index of shard_count (unit_in_shard);
  // the counts are then that shard's share.
  int shard_index = 0;
  int shard_count = 1;
  bool sharded() const { return shard_count > 1; }
};

// The directed tours the enumerator would count, assembled from one or more sweeps:
//  - closed: one sweep counts the cycles C; every cycle passes every square and runs two
//    ways, so 2C closed tours start on each square (2 * squares * C over all starts);
//  - open from a start: a sweep with that square pinned as a path end counts the paths
//    ending there, which are exactly the directed tours from it; a closed sweep adds the
//    closed ones among them (2C);
//  - open from a start to an end: one sweep with both squares pinned as the path's ends
//    (all of them closed when the two are a knight move apart, else none);
//  - open over all starts: one pinned sweep per symmetry class of start squares (squares a
//    board symmetry maps onto each other have equal counts; on a board with an odd number of
//    squares both ends of a path lie on the majority colour, so minority squares are 0);
//  - or, on long boards (grid_by_backward_pass), the unpinned sweep below with every
//    generation kept and a pass back over them that gives every square's ends at once
//    (backward_pass.hpp): about n column steps on an n-long board where the tails take n^2;
//  - or by end pairs (GridMethod::end_pairs): one sweep with both ends pinned per class of
//    (start, end) pairs; no closed sweep (the closed tours are those whose ends are a knight's
//    move apart) and no shared prefix, so each unit stands alone;
//  - open over all starts, total only: one unpinned sweep counts every undirected path once
//    (T takes its two edges anywhere), and each runs two ways: 2P directed tours. On 8x7 it
//    expands 2.4 times fewer classes than the prefix and 16 pinned tails.
struct FrontierReport {
  bool complete = false;
  StopReason stop_reason = StopReason::none;
  BigCount tours;                         // directed tours from the start, or over all starts
  BigCount closed_tours;                  // directed closed tours among them
  BigCount cycles;                        // closed cycles (undirected) of the board
  std::vector<BigCount> tours_by_start;   // all starts: per board square
  std::vector<BigCount> closed_by_start;  // all starts: per board square
  // By end pairs: the tours from s ending on t at [s * squares + t] (directed).
  std::vector<BigCount> tours_by_start_end;
  bool grid_by_backward_pass = false;  // the grid came (or was coming) from the backward pass
  int sweeps = 0;                      // sweeps run (each a full DP over the board)
  int sweeps_resumed = 0;              // of those, finished or saved by an earlier run
  int sweeps_finished = 0;             // of those, finished (now or earlier)
  int sweeps_planned = 0;
  int width = 0;  // squares across the sweep (the shorter side)
  std::uint64_t peak_classes = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t expanded = 0;
  int limbs = 1;
  std::uint64_t spilled_bytes = 0;
  int max_passes = 1;
  std::uint64_t exchanged_bytes = 0;  // sent between MPI ranks (several ranks only)
  double seconds = 0;
  // When stopped: classes still to expand and the largest generation, projected by
  // sweep_outlook() from the sweep that stopped; every sweep not yet started is taken to cost
  // as much as that one, except in an all-starts job, whose tails are each taken to cost what
  // the projected profile holds from their pin on (AllStartsOutlook, frontier_job.cpp).
  double classes_left = 0;
  double projected_peak_classes = 0;
  SweepOutlook stopped_outlook;  // the sweep (or shared prefix) that stopped, alone
  double steps_seconds = 0;      // wall time of the steps finished (expanded counts only those)
};

// Throws UsageError when the board is too wide for the frontier method, the start is off
// the board, open_sweeps_only is asked of a closed job, or KNIGHTSTOUR_BIT_KERNEL names no kernel
// this CPU runs (chosen_bit_kernel); a request that passes is one count_by_frontier takes.
void validate(const FrontierRequest& request);

// How many sweeps the job runs (closed: 1; open from a start: 2; open over all starts: 1
// plus one per class of start squares, or with `backward_pass` (grid_by_backward_pass) 3,
// the pass counted as a sweep; open_sweeps_only: one fewer; by end pairs: one per unit, of
// every shard, sweep k being unit k). The shared prefix of an
// all-starts job is saved as sweep number planned_sweeps() and never finishes.
int planned_sweeps(const FrontierRequest& request, bool backward_pass = false);

class FrontierJournal;

// Whether an all-starts job with these options counts its grid by the backward pass:
// asked (request.grid), or, automatically, on one process (not over MPI ranks) without a
// journal (the pass keeps its generations in memory only, so a run directory's job takes
// pinned tails, which resume) on a board with at least 3/4 of 2^(W-2) classes of start
// squares, W the sweep's width: the tails then cost more than the pass
// (results/frontier/half-turn-2026-11-27.md).
// Where the rule would choose the pass but a journal or ranks rule it out, an info line says
// so. Throws UsageError when the backward pass is asked with a journal or several ranks.
bool grid_by_backward_pass(const FrontierRequest& request, const FrontierOptions& options,
                           const FrontierJournal* journal);

// One pinned sweep per class of equivalent start squares: the class's squares and the
// representative swept. Squares that cannot start an open tour (minority colour on an odd
// board) are left out.
struct StartClass {
  std::int64_t representative;
  std::vector<std::int64_t> squares;
};
std::vector<StartClass> start_classes(BoardShape shape);

// The sweep orientation in which `square` comes earliest (a pinned end is cheapest early).
Orientation best_orientation_for(BoardShape shape, std::int64_t square);
// For two pinned ends: the orientation whose later pin comes earliest (then its earlier one).
Orientation best_orientation_for(BoardShape shape, std::int64_t a, std::int64_t b);

// Keeps a job's progress across processes: the counts of finished sweeps and the state of
// the running one (frontier_run_dir.hpp keeps them in a directory). Called between steps,
// never per class.
class FrontierJournal {
 public:
  virtual ~FrontierJournal() = default;
  // The count of sweep `sweep` when an earlier process finished it.
  virtual std::optional<BigCount> finished(int sweep) = 0;
  virtual void finish(int sweep, const BigCount& count) = 0;
  // Where an earlier process left sweep `sweep`, when it saved it.
  virtual std::optional<FrontierState> saved(int sweep) = 0;
  virtual bool has_saved(int sweep) = 0;
  // After each step of sweep `sweep`; saves the state when a save is due.
  virtual void after_step(int sweep, const FrontierState& state) = 0;
};

// Throws UsageError when the board is too wide for the frontier method or the start is off
// the board (validate()). options.label is extended per sweep for progress lines. With a journal,
// sweeps it has finished are not run again and a saved sweep continues where it was saved.
FrontierReport count_by_frontier(const FrontierRequest& request, const FrontierOptions& options,
                                 StopControl& stop, FrontierJournal* journal = nullptr);

}  // namespace knightstour
