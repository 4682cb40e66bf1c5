#pragma once

#include <string>
#include <variant>

#include "knightstour/exec/driver.hpp"
#include "knightstour/exec/tour_file_sink.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/sample_run.hpp"

namespace knightstour::cli {

// What `count` ran: counts, by start and by last square.
struct CountSummary {
  Request request;  // resolved
  RunReport report;
  std::string run_dir;  // empty when none
};

// What `enumerate` ran: the same totals, and the files it wrote.
struct EnumerateSummary {
  Request request;
  RunReport report;
  std::string run_dir;
  TourFileStats files;
  TourFormat format = TourFormat::npy;
  Compression compression = Compression::none;
};

using Summary = std::variant<CountSummary, EnumerateSummary>;

// Prints the summary as text or JSON; returns the exit code (0 complete, 3 stopped early).
int print_summary(const Summary& summary, bool json);

// What `enumerate --sample` wrote; returns 0.
int print_sample_summary(const Request& request, const SampleOutcome& sample,
                         const std::string& run_dir, bool json);

}  // namespace knightstour::cli
