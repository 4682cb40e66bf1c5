#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

// What a sweep measures of its steps: the bytes its widest step held (StepBytes), and what
// the rest of it holds, projected from the steps done (SweepOutlook).

namespace knightstour {

// What the memory budget held at the fullest moment of a sweep's widest step (the end of a
// pass's aggregation, when the successors wait in blocks beside both generations), by what
// held it. total() is what the budget counted then; peak_bytes, its highest at any moment,
// is at least that.
struct StepBytes {
  std::uint64_t current = 0;     // the generation being expanded (its parts in memory)
  std::uint64_t next = 0;        // the generation being built
  std::uint64_t partial = 0;     // a sliced step's partial parts of it, before they merge
  std::uint64_t successors = 0;  // blocks of successors waiting to be added up (and outboxes)
  std::uint64_t tables = 0;      // the threads' aggregation tables and their scratch
  std::uint64_t idle = 0;        // scratch chunks kept for the next pass or step to reuse
  std::uint64_t other = 0;       // choice plans, read and write buffers
  std::uint64_t kept = 0;        // generations kept for a pass back (GridMethod::pass)
  std::uint64_t total() const {
    return current + next + partial + successors + tables + idle + other + kept;
  }
};

// How a step was built (docs/frontier.md, "One step"), as it finished: in one pass; in
// ranges of parts, spilled (planned so, or a pass that ran out split in halves); in slices of
// the current generation, merged at the end; sliced and setting the current generation aside
// as it went; or sliced, run out, and built in ranges after all.
enum class StepStrategy { at_once, in_ranges, sliced, sliced_setting_aside, sliced_then_in_ranges };
inline constexpr int kStepStrategies = static_cast<int>(StepStrategy::sliced_then_in_ranges) + 1;
// As the JSON's steps_by_strategy names them (docs/formats.md).
constexpr const char* step_strategy_name(StepStrategy s) {
  switch (s) {
    case StepStrategy::at_once:
      return "at_once";
    case StepStrategy::in_ranges:
      return "in_ranges";
    case StepStrategy::sliced:
      return "sliced";
    case StepStrategy::sliced_setting_aside:
      return "sliced_setting_aside";
    case StepStrategy::sliced_then_in_ranges:
      break;
  }
  return "sliced_then_in_ranges";
}
// Steps finished, by the strategy that built them.
struct StepsByStrategy {
  std::array<int, kStepStrategies> steps{};
  int& operator[](StepStrategy s) { return steps[static_cast<std::size_t>(s)]; }
  int operator[](StepStrategy s) const { return steps[static_cast<std::size_t>(s)]; }
  StepsByStrategy& operator+=(const StepsByStrategy& o) {
    for (std::size_t s = 0; s < steps.size(); ++s) steps[s] += o.steps[s];
    return *this;
  }
  // The steps built in slices, however they ended (the JSON's steps_sliced.steps).
  int sliced() const {
    return (*this)[StepStrategy::sliced] + (*this)[StepStrategy::sliced_setting_aside] +
           (*this)[StepStrategy::sliced_then_in_ranges];
  }
  int total() const {
    int n = 0;
    for (const int s : steps) n += s;
    return n;
  }
};

// What the rest of a sweep holds, projected from the classes after the steps done (`sizes`,
// the last one the generation step `step` expands; `left_in_step` of it not yet expanded).
// The progress line's ETA and `estimate` use it.
//
// The model, fitted to the whole profiles of 21 sweeps 5 to 8 wide (closed, and the
// unpinned open sweep; results/frontier/outlook-fit.md). Columns are counted from 0
// here (column c: steps cW .. cW + W - 1). Each generation is the one a column before it
// times a growth g, and log g has two parts:
//   - The top edge's: measured over the last column at the cut, it fades by kOutlookFade[c]
//     over column c (0.7 a column through column 3, held over column 4, then x0.3 and
//     x0.5), and from column 7 on it is gone. Every width 5 to 8 collapses in columns 5
//     and 6, whatever the board's length.
//   - The bottom edge's: kOutlookThirdLast over the third-last column, kOutlookSecondLast
//     over the second-last (their squares have ever fewer neighbours left to take their
//     ends); in the last column the classes fall by kOutlookLastPerStep a step.
// Projected from every step from column 3 on: median error x1.14 on the classes left and
// x1.16 on the peak, 90% within x1.8 and x1.9, worst x9 and x12 (5-wide closed boards early
// in column 3, whose growth rises again there); 8x8 closed from step 37 (where `estimate
// --calibrate 60` stops): x1.9 on both. From column 2 on the worst is x36.
struct SweepOutlook {
  double classes_left = 0;  // classes still to expand, the step under way included
  double peak_classes = 0;  // the largest generation expected, this one included
  // The generations after steps first_step, first_step + 1, ...: measured up to the one step
  // next_step expands, projected after it (to the one the last step expands).
  int first_step = 0;
  int next_step = 0;
  std::vector<double> profile;
};
SweepOutlook sweep_outlook(const std::vector<std::uint64_t>& sizes, int step, int steps, int width,
                           std::uint64_t left_in_step);

// Classes the steps [from, to) expand by `outlook`'s profile (step k expands the generation
// after step k - 1); where the profile does not reach, nothing is counted.
double profile_classes(const SweepOutlook& outlook, int from, int to);

inline constexpr double kOutlookFade[] = {0.7, 0.7, 0.7, 0.7, 1.0, 0.3, 0.5};  // by column
inline constexpr double kOutlookThirdLast = -0.2;                              // log growth
inline constexpr double kOutlookSecondLast = -1.0;                             // log growth
inline constexpr double kOutlookLastPerStep = 0.1;

// What a count's widest step holds when it spills, in memory and on disk together: the
// generation it expands, the one it builds and its successors, at least three times the
// largest generation's bytes at rest (a successor's record takes about as many bytes as a
// class at rest, and successors outnumber the classes they build: docs/speed.md
// (compact-successors.md)). A lower bound, so that the warning a spilling sweep gives
// (room_warning.hpp) and the disk `estimate` asks for are meant.
inline constexpr double kPeakStepGenerations = 3;

}  // namespace knightstour
