#pragma once

#include <string>

#include "knightstour/exec/driver.hpp"
#include "knightstour/exec/tour_file_sink.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/sample_run.hpp"

namespace knightstour {

// What `enumerate` ran: the totals, and the files it wrote.
struct EnumerateSummary {
  Request request;
  RunReport report;
  std::string run_dir;
  TourFileStats files;
  TourFormat format = TourFormat::npy;
  Compression compression = Compression::none;
};

// What `enumerate --sample` wrote.
struct SampleSummary {
  Request request;
  SampleOutcome sample;
  std::string run_dir;
};

}  // namespace knightstour
