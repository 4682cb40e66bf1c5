#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knightstour/exec/driver.hpp"
#include "knightstour/exec/tour_file_sink.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// A whole count or enumerate job: what to search, how to run it, where to keep it.
struct JobRequest {
  Command command = Command::count;
  Request request;
  int threads = 0;  // 0: every CPU this process may use
  Caps caps;
  double progress_seconds = 0;
  bool largest_first = true;
  std::optional<std::filesystem::path> dir;  // a run directory (enumerate needs one)
  bool resume = false;
  std::optional<TourFormat> format;        // enumerate
  std::optional<Compression> compression;  // enumerate
  TourFileOptions files;                   // enumerate
  Provenance provenance;                   // recorded in the manifest
  bool tour_symmetries = false;            // count: look at each tour's symmetries (CountSink)
};

struct JobOutcome {
  Request request;  // as resolved (split depth set)
  RunReport report;
  std::filesystem::path dir;            // empty without a run directory
  std::optional<TourFileStats> files;   // enumerate
  TourFormat format = TourFormat::npy;  // enumerate
  Compression compression = Compression::none;
  std::vector<std::string> cleaned;  // what resuming removed (also logged)
};

// An enumerate's refusal of a run directory that is none (its tours go to files).
inline constexpr std::string_view kToursNeedADirectory =
    "$out needs a directory (tours go to files there, not to standard output)";

// The request's refusals, naming its fields (an enumerate's run directory and the seconds
// between its file checkpoints), in the order checked; empty when it can run.
std::vector<std::string> check(const JobRequest& job);

// Resolves the request once (or takes it from the run directory's manifest on a resume),
// picks the sink (counts, or tour files), runs the driver with the run session as its
// ledger, and records the outcome in the manifest. The one place a run is wired. Refuses what
// check() refuses (UsageError).
JobOutcome run_job(const JobRequest& job);

}  // namespace knightstour
