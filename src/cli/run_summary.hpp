#pragma once

#include <string>

#include "knightstour/exec/driver.hpp"
#include "knightstour/exec/tour_file_sink.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/sample_run.hpp"

namespace knightstour::cli {

// What `enumerate` ran: the totals, and the files it wrote (count prints through
// count_summary.hpp).
struct EnumerateSummary {
  Request request;
  RunReport report;
  std::string run_dir;
  TourFileStats files;
  TourFormat format = TourFormat::npy;
  Compression compression = Compression::none;
};

// Prints the summary as text or JSON; returns the exit code (0 complete, 3 stopped early).
int print_summary(const EnumerateSummary& summary, bool json);

// What `enumerate --sample` wrote; returns 0.
int print_sample_summary(const Request& request, const SampleOutcome& sample,
                         const std::string& run_dir, bool json);

}  // namespace knightstour::cli
