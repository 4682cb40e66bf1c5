#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// enumerate --sample N: the first N tours in the search's depth-first order, from the start
// square (or prefix), or from each start square in turn (a1, b1, ...) for all starts.
//
// The order is the kernel's move order and nothing else: the sample is searched on one
// thread without splitting into prefixes or deriving mirror images, so the same request
// gives the same N tours, row for row, whatever the thread count, split depth or machine.
// A board with fewer than N tours gives all of them (and says so).
struct SampleRequest {
  Request request;  // board, start or prefix or all starts, open or closed
  std::uint64_t tours = 0;
  std::filesystem::path dir;
  TourFormat format = TourFormat::npy;
  Compression compression = Compression::none;
  Provenance provenance;
};

struct SampleOutcome {
  RunManifest manifest;    // as written (status complete, sample = the N asked)
  bool whole_set = false;  // the search ended before N: these are all the tours there are
  std::filesystem::path file;
  std::uint64_t bytes = 0;
  double seconds = 0;
  double cpu_seconds = 0;
};

// The request's refusals, naming its fields; empty when it can be written.
std::vector<std::string> check(const SampleRequest& request);

// Writes the sample as a run directory (one tour file and the manifest; no journal: it is
// written once, whole, and never resumed). Stopped by the time limit or a signal, it
// publishes nothing and throws Interrupted. UsageError for what check() refuses and for a
// directory that holds a run.
SampleOutcome write_sample(const SampleRequest& request, StopControl& stop);

}  // namespace knightstour
