#pragma once

#include <filesystem>
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

// What was merged: the enumerator's shards, or a frontier count's units.
struct Merged {
  std::filesystem::path out;
  std::variant<MergeReport, FrontierMergeReport> report;
  bool complete() const;
};

// Merges the inputs by the method whose run the first one holds (each input's own reader
// refuses one of the other method's). Every input path must be a readable run directory.
Merged merge(const MergeRequest& request);

}  // namespace knightstour
