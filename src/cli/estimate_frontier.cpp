#include "estimate_frontier.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "json_counts.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/run_count.hpp"
#include "output.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

std::string gib(double bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g GiB", bytes / (1024.0 * 1024 * 1024));
  return b;
}

// What the calibration saw, and what it projects for the whole count.
struct Projection {
  double seconds_per_class = 0;  // wall time, on the threads used
  double seconds = -1;           // the whole count, projected; -1 unknown
  double bytes_per_class = 0;
  double peak_bytes = 0;
};

Projection project(const CountResult& r, const FrontierStatistics& st) {
  Projection p;
  if (st.classes_expanded > 0) {
    p.seconds_per_class = st.seconds_per_class;
    p.seconds = r.seconds + st.classes_left * p.seconds_per_class;
  }
  if (st.peak_classes > 0) {
    p.bytes_per_class =
        static_cast<double>(st.peak_class_bytes) / static_cast<double>(st.peak_classes);
    p.peak_bytes = st.projected_peak_classes * p.bytes_per_class;
  }
  return p;
}

void print_json(const CountResult& r, const FrontierStatistics& st, const Projection& p,
                double calibrate) {
  nlohmann::json j{{"board", r.shape.name()},
                   {"method", "frontier"},
                   {"method_reason", r.why},
                   {"all_starts", r.all_starts},
                   {"total_only", r.total_only},
                   {"closed_only", r.closed},
                   {"threads", r.threads},
                   {"calibrate", calibrate},
                   {"exact", r.complete},
                   {"classes_expanded", st.classes_expanded},
                   {"seconds_per_class", p.seconds_per_class},
                   {"classes_left", st.classes_left},
                   {"peak_classes", st.projected_peak_classes},
                   {"peak_class_bytes", p.peak_bytes},
                   {"seconds", r.complete ? r.seconds : p.seconds},
                   {"interrupted", r.stop_reason == StopReason::signal}};
  if (!r.all_starts) {
    const auto s = r.prefix.front();
    j["start"] =
        square_name(static_cast<int>(s / r.shape.cols), static_cast<int>(s % r.shape.cols));
  }
  if (r.complete) {
    j["tours"] = json_count(r.tours);
    if (r.closed_cycles) j["closed_cycles"] = json_count(*r.closed_cycles);
    j["peak_classes"] = st.peak_classes;
    j["peak_class_bytes"] = st.peak_class_bytes;
  }
  add_provenance(j);
  std::cout << dump_json(j) << '\n';
}

}  // namespace

int estimate_by_frontier(CountRequest request, const MethodChoice& choice, double calibrate,
                         bool json) {
  if (calibrate <= 0) {
    throw UsageError(
        "the frontier method's estimate is a short count: --calibrate must be above 0");
  }
  request.method = MethodAsked::frontier;
  request.caps.time_limit = calibrate;
  request.run_dir.reset();
  CountResult r = run_count(request);
  r.why = choice.why;
  const auto& st = std::get<FrontierStatistics>(r.statistics);
  const Projection p = project(r, st);
  const bool interrupted = r.stop_reason == StopReason::signal;
  if (json) {
    print_json(r, st, p, calibrate);
    return interrupted ? kExitStopped : kExitOk;
  }
  std::printf("board      %s, %s\n", r.shape.name().c_str(),
              what_is_counted(r.shape, r.all_starts, r.prefix, r.closed, r.total_only).c_str());
  std::printf("method     frontier (%s): estimated from a %s count\n", r.why.c_str(),
              human_duration(calibrate).c_str());
  if (r.complete) {
    std::printf("exact      the whole count ran during calibration: %s tours",
                r.tours.with_commas().c_str());
    if (r.closed_cycles) std::printf(", %s closed cycles", r.closed_cycles->with_commas().c_str());
    std::printf(" in %.3f s, %s classes at most (%s)\n", r.seconds,
                estimate_figure(static_cast<double>(st.peak_classes)).c_str(),
                gib(static_cast<double>(st.peak_class_bytes)).c_str());
    return kExitOk;
  }
  std::printf(
      "measured   %s classes expanded in %.1f s on %d threads (%.0f ns of wall time each); "
      "%d of %d sweeps finished, %s classes at most so far\n",
      estimate_figure(static_cast<double>(st.classes_expanded)).c_str(), r.seconds, r.threads,
      p.seconds_per_class * 1e9, st.sweeps_finished, st.sweeps_planned,
      estimate_figure(static_cast<double>(st.peak_classes)).c_str());
  if (interrupted) {
    std::printf("stopped    interrupted by a signal: nothing projected\n");
    return kExitStopped;
  }
  if (p.seconds < 0) {
    std::printf("projected  nothing: no class was expanded (give a longer --calibrate)\n");
    return kExitOk;
  }
  std::printf(
      "projected  ~%s classes still to expand; the largest generation ~%s classes, "
      "~%s of classes (%.0f bytes a class as measured)\n",
      estimate_figure(st.classes_left).c_str(), estimate_figure(st.projected_peak_classes).c_str(),
      gib(p.peak_bytes).c_str(), p.bytes_per_class);
  std::printf("time       ~%s for knightstour count with the same options\n",
              human_duration(p.seconds).c_str());
  std::printf(
      "note       A rough projection: each column holds the last one's classes times a growth\n"
      "           that fades and stops by column 7 (frontier_counter.hpp). Measured here: 8x8\n"
      "           closed from 60 s said 3 h 15 min and 1.6e10 classes (the count took 1 h 15 min,\n"
      "           5.4e9); expect up to ~3x either way, more from a few seconds early in a big\n"
      "           sweep. A longer --calibrate sees more of it. Classes past --memory spill to "
      "disk.\n");
  return kExitOk;
}

}  // namespace knightstour::cli
