#pragma once

#include <cstdint>

#include "knightstour/count/count_result.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"

namespace knightstour {

// The estimate's model: a short count by the frontier method (a calibration, stopped by its
// time limit or its memory budget) projected to the whole count. The classes still to expand
// and the largest generation come from the sweep's outlook (sweep_outlook.hpp); time and
// bytes from what the calibration measured a class to take.
// What the calibration saw, and what it projects for the whole count.
struct Projection {
  double seconds_per_class = 0;  // wall time, on the threads used
  double seconds = -1;           // the whole count, projected; -1 unknown
  double bytes_per_class = 0;    // during a step, as the calibration measured it
  double peak_bytes = 0;         // the largest generation's step, at that
  // A class of the largest generation at rest, as measured (kUnmeasuredClassBytes before any
  // was).
  double rest_bytes_per_class = 0;
  // Of the whole count, as projected (both parts when calibrated in two).
  std::uint64_t classes_expanded = 0;
  double calibrated_seconds = 0;
  std::uint64_t peak_seen = 0;  // the largest generation the calibration held
  double classes_left = 0;
  double peak_classes = 0;
  bool two_parts = false;  // the closed sweep and the open sweeps calibrated apart

  // The largest generation at rest, and what the widest step of a count that spills needs in
  // memory and on disk together (kPeakStepGenerations times it, sweep_outlook.hpp).
  double peak_rest_bytes() const { return peak_classes * rest_bytes_per_class; }
  double widest_step_spilling() const { return kPeakStepGenerations * peak_rest_bytes(); }
};

// The projection of a calibration `r` (a frontier count, complete or stopped).
Projection project(const CountResult& r);

// An open job runs its closed sweep first; a calibration that ended inside it has seen none
// of the open sweeps, which hold most of the classes (15 to 23 times the closed sweep's at
// the same step of 8x8). Such a job is projected in two parts: the closed sweep alone from
// the first calibration (`closed`), the open sweeps from a second one that leaves the closed
// sweep out (`open`, CountRequest::open_sweeps_only).
Projection project_in_two(const CountResult& closed, const CountResult& open);

// Whether a stopped calibration of an open job saw only its closed sweep (then project it in
// two parts).
bool saw_only_the_closed_sweep(const CountResult& r);

}  // namespace knightstour
