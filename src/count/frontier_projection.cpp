#include "knightstour/count/frontier_projection.hpp"

#include <algorithm>
#include <variant>

#include "knightstour/frontier/frontier_report.hpp"

namespace knightstour {

Projection project(const CountResult& r) {
  const auto& st = std::get<FrontierStatistics>(r.statistics);
  Projection p;
  p.classes_expanded = st.expanded;
  p.calibrated_seconds = r.seconds;
  p.peak_seen = st.peak_classes;
  p.classes_left = st.classes_left;
  p.peak_classes = st.projected_peak_classes;
  if (st.expanded > 0) {
    p.seconds_per_class = st.seconds_per_class;
    p.seconds = r.seconds + st.classes_left * p.seconds_per_class;
  }
  if (st.peak_classes > 0) {
    p.bytes_per_class = static_cast<double>(st.peak_bytes) / static_cast<double>(st.peak_classes);
    p.peak_bytes = st.projected_peak_classes * p.bytes_per_class;
  }
  p.rest_bytes_per_class =
      st.peak_classes > 0 && st.peak_rest_bytes > 0
          ? static_cast<double>(st.peak_rest_bytes) / static_cast<double>(st.peak_classes)
          : static_cast<double>(kUnmeasuredClassBytes);
  return p;
}

// Projecting the open sweeps from the closed one said under 20 minutes and 40 GiB for the 8x8
// open total, which needs hours and hundreds of GiB.
Projection project_in_two(const CountResult& closed, const CountResult& open) {
  const auto& a = std::get<FrontierStatistics>(closed.statistics);
  const auto& b = std::get<FrontierStatistics>(open.statistics);
  const Projection pa = project(closed);
  const Projection pb = project(open);
  Projection p;
  p.two_parts = true;
  p.classes_expanded = a.expanded + b.expanded;
  p.calibrated_seconds = closed.seconds + open.seconds;
  p.peak_seen = std::max(pa.peak_seen, pb.peak_seen);
  p.classes_left = a.stopped_sweep_classes_left + (open.complete ? 0 : b.classes_left);
  // A stopped run's projected peak includes the peak it held; a finished one projects none.
  p.peak_classes =
      std::max(a.projected_peak_classes,
               open.complete ? static_cast<double>(b.peak_classes) : b.projected_peak_classes);
  const double closed_seconds =
      closed.seconds + a.stopped_sweep_classes_left * pa.seconds_per_class;
  const double open_seconds = open.complete ? open.seconds : pb.seconds;
  p.seconds = pb.seconds < 0 && !open.complete ? -1 : closed_seconds + open_seconds;
  p.seconds_per_class = p.classes_expanded > 0 ? (closed.seconds + open.seconds) /
                                                     static_cast<double>(p.classes_expanded)
                                               : 0;
  p.bytes_per_class = std::max(pa.bytes_per_class, pb.bytes_per_class);
  p.peak_bytes = p.peak_classes * p.bytes_per_class;
  p.rest_bytes_per_class = std::max(pa.rest_bytes_per_class, pb.rest_bytes_per_class);
  return p;
}

bool saw_only_the_closed_sweep(const CountResult& r) {
  const auto& st = std::get<FrontierStatistics>(r.statistics);
  // Units of end pairs run no closed sweep: their first sweep is an open one.
  return !r.complete && !r.closed && st.grid_method != GridMethod::end_pairs &&
         st.sweeps_finished == 0 && st.sweeps_planned > 1 && st.expanded > 0;
}

}  // namespace knightstour
