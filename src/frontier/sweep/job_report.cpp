#include "frontier/sweep/job_report.hpp"

#include <algorithm>

namespace knightstour::frontier_detail {

// The report's figure for a class before any was measured is the generation's own.
static_assert(kUnmeasuredClassBytes == Generation<1>::kClassBytes);

// Adds a run's figures to the report; a run that is a sweep's own (not a shared prefix's
// stretch) counts as a sweep.
void add_to_report(FrontierReport& report, const FrontierResult& r, bool is_sweep) {
  if (is_sweep) ++report.sweeps;
  if (r.peak_classes >= report.peak_classes) report.peak_rest_bytes = r.peak_rest_bytes;
  report.peak_classes = std::max(report.peak_classes, r.peak_classes);
  report.peak_bytes = std::max(report.peak_bytes, r.peak_bytes);
  if (r.widest_step.total() > report.widest_step.total()) report.widest_step = r.widest_step;
  report.expanded += r.expanded;
  report.steps_seconds += r.steps_seconds;
  report.limbs = std::max(report.limbs, r.limbs);
  report.spilled_bytes += r.spilled_bytes;
  report.exchanged_bytes += r.exchanged_bytes;
  report.max_passes = std::max(report.max_passes, r.max_passes);
  report.steps_by_strategy += r.steps_by_strategy;
  if (!r.complete && report.stop_reason == StopReason::none) report.stop_reason = r.stop_reason;
  if (r.complete && is_sweep) {
    ++report.sweeps_finished_now;
    report.expanded_by_finished_now += r.expanded;
  }
  if (!r.complete && !r.paused) {
    double whole = static_cast<double>(r.expanded) + r.outlook.classes_left;
    if (report.sweeps_alike) {
      // The units differ several times over in cost: the mean of those seen says more of the
      // rest than the one that stopped (6x7 by end pairs, shard 0 of 2: 3.7x high from it).
      whole = (whole + static_cast<double>(report.expanded_by_finished_now)) /
              (1.0 + report.sweeps_finished_now);
    }
    const int not_started = std::max(0, report.sweeps_planned - report.sweeps);
    report.stopped_outlook = r.outlook;
    report.classes_left = r.outlook.classes_left + not_started * whole;
    report.projected_peak_classes =
        std::max(static_cast<double>(report.peak_classes), r.outlook.peak_classes);
  }
}

}  // namespace knightstour::frontier_detail
