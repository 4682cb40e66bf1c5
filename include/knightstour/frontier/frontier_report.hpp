#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

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
//  - or, on long boards (chooses_backward_pass), the unpinned sweep below with every
//    generation kept and a pass back over them that gives every square's ends at once
//    (backward_pass.hpp): about n column steps on an n-long board where the tails take n^2;
//  - or by end pairs (GridMethod::end_pairs): one sweep with both ends pinned per class of
//    (start, end) pairs; no closed sweep (the closed tours are those whose ends are a knight's
//    move apart) and no shared prefix, so each unit stands alone;
//  - open over all starts, total only: one unpinned sweep counts every undirected path once
//    (T takes its two edges anywhere), and each runs two ways: 2P directed tours. On 8x7 it
//    expands 2.4 times fewer classes than the prefix and 16 pinned tails.
// What a count's sweeps cost: per sweep in FrontierResult, over the job in FrontierReport
// (add_to_report: peaks are maxima, work is summed), and carried on unchanged by the count layer's
// FrontierStatistics to the summary and the JSON.
// Bytes a class takes before any was measured: a 64-bit key and one 64-bit limb of count
// (generation.hpp's Generation<1>::kClassBytes).
inline constexpr std::uint64_t kUnmeasuredClassBytes = 16;

struct SweepFigures {
  int width = 0;            // squares across the sweep (the shorter side)
  int sweeps = 0;           // sweeps run (each a full DP over the board)
  int sweeps_resumed = 0;   // of those, finished or saved by an earlier run
  int sweeps_finished = 0;  // of those, finished (now or earlier)
  int sweeps_planned = 0;
  std::uint64_t peak_classes = 0;
  std::uint64_t peak_bytes = 0;  // of the classes during a step, at the largest
  StepBytes widest_step;         // of the sweep whose widest step held the most
  // Of the largest generation between steps, in memory or spill files: over peak_classes,
  // the bytes of a class at rest (compact_classes.hpp).
  std::uint64_t peak_rest_bytes = 0;
  std::uint64_t expanded = 0;  // classes expanded this session
  int limbs = 1;               // 64-bit words of a count
  std::uint64_t spilled_bytes = 0;
  int max_passes = 1;
  StepsByStrategy steps_by_strategy{};  // steps finished this session, by how each was built
  std::uint64_t exchanged_bytes = 0;    // sent between MPI ranks (several ranks only)
  // When stopped: classes still to expand and the largest generation, projected by
  // sweep_outlook() from the sweep that stopped; every sweep not yet started is taken to cost
  // as much as that one, except in an all-starts job, whose tails are each taken to cost what
  // the projected profile holds from their pin on (AllStartsOutlook, frontier_job.cpp).
  double classes_left = 0;
  double projected_peak_classes = 0;
  double steps_seconds = 0;  // wall time of the steps finished (expanded counts only those)
  // Sweeps finished this session and the classes they expanded: where a job's sweeps are
  // alike (units of end pairs), those not started are projected at the mean of these and the
  // one that stopped.
  int sweeps_finished_now = 0;
  std::uint64_t expanded_by_finished_now = 0;
  bool sweeps_alike = false;

  int count_bits() const { return 64 * limbs; }
};

// A row of every length (FrontierRequest::every_length): the counts of the board `length`
// columns long, as a count of that board alone over all starts would give them.
struct LengthCounts {
  int length = 0;
  BigCount tours;         // directed tours over all starts (closed ones only, for a closed row)
  BigCount closed_tours;  // directed closed tours among them
  BigCount cycles;        // closed cycles (undirected)
};

struct FrontierReport : SweepFigures {
  bool complete = false;
  StopReason stop_reason = StopReason::none;
  BigCount tours;                         // directed tours from the start, or over all starts
  BigCount closed_tours;                  // directed closed tours among them
  BigCount cycles;                        // closed cycles (undirected) of the board
  std::vector<BigCount> tours_by_start;   // all starts: per board square
  std::vector<BigCount> closed_by_start;  // all starts: per board square
  // By end pairs: the tours from s ending on t at [s * squares + t] (directed).
  std::vector<BigCount> tours_by_start_end;
  std::vector<LengthCounts> by_length;  // every_length: lengths 1 to the board's
  std::uint64_t modulus = 0;            // the counts above are residues modulo it (0: exact counts)
  bool grid_by_backward_pass = false;   // the grid came (or was coming) from the backward pass
  double seconds = 0;
  SweepOutlook stopped_outlook;  // the sweep (or shared prefix) that stopped, alone
  // When stopped with a journal: the sweep that stopped (its number) and the step a resume
  // continues it from (nothing: its start); what the checkpoint kept.
  int stopped_sweep = -1;
  int stopped_sweep_steps = 0;  // the steps it takes to its end (a row's: to its longest length)
  std::optional<int> kept_step;
};

}  // namespace knightstour
