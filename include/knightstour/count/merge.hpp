#pragma once

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "knightstour/frontier_run/merge_frontier.hpp"
#include "knightstour/run/merge.hpp"

namespace knightstour {

// What `merge` is asked: run directories of one job (shards, or a frontier count's units of
// end pairs or residue units) into one new one.
struct MergeRequest {
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path out;
  MergeOptions options;  // the enumerator's tour check; the provenance of either
};

// The request's refusals, naming its fields, in the order checked; empty when it can be
// merged (what the inputs hold is checked as they are read).
std::vector<std::string> check(const MergeRequest& request);

// What was merged: the enumerator's shards, or a frontier count's units.
struct Merged {
  std::filesystem::path out;
  std::variant<MergeReport, FrontierMergeReport> report;
  bool complete() const;
};

// Merges the inputs by the method whose run the first one holds (each input's own reader
// refuses one of the other method's). Refused (UsageError): what check() refuses, an input
// that is not a readable run directory.
Merged merge(const MergeRequest& request);

}  // namespace knightstour
