#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/run/manifest.hpp"

namespace knightstour {

struct MergeReport {
  std::size_t inputs = 0;
  std::size_t prefixes = 0;          // in the plan
  std::size_t prefixes_done = 0;     // covered by the inputs
  std::vector<std::size_t> missing;  // prefix ids no input has finished
  std::uint64_t tours = 0;
  std::uint64_t closed = 0;
  std::uint64_t nodes = 0;           // of the finished prefixes
  std::uint64_t nodes_searched = 0;  // over every session of every input
  double cpu_seconds = 0;            // over every session of every input
  std::uint64_t files = 0;
  std::vector<std::string> notes;
  bool complete() const { return prefixes_done == prefixes; }
};

// What merge says of an --out that exists and is not empty (either method's merge).
inline constexpr const char* kMergeWritesNew =
    "merge writes a new run directory: choose another $out";

struct MergeOptions {
  bool read_tours = true;  // check every tour of every input; else sizes and bookkeeping only
  Provenance provenance;   // of the merge, for the merged manifest
};

// Combines the run directories of shards (or any runs of the same job) into `out`, a run
// directory equivalent to one unsharded run: one journal, tour files hard-linked (copied
// across file systems) and renumbered, a manifest with the sums. Before writing anything it
// checks every input as verify does (FormatError naming the input and its first problem),
// and refuses (UsageError) inputs whose manifests disagree on what was asked, and any prefix
// finished by two inputs; prefixes finished by none are reported and leave the result
// incomplete. `out` is built as OUT.tmp and renamed to OUT when whole (NewRunDirectory): a
// merge killed part-way leaves no OUT.
MergeReport merge_runs(const std::vector<std::filesystem::path>& inputs,
                       const std::filesystem::path& out, const MergeOptions& options = {});

}  // namespace knightstour
