#pragma once

#include <filesystem>
#include <vector>

#include "knightstour/frontier/wide_count.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"

namespace knightstour {

// What merging a frontier count's shards gave.
struct FrontierMergeReport {
  std::size_t inputs = 0;
  int units = 0;             // in the job
  int units_done = 0;        // finished by the inputs
  std::vector<int> missing;  // units no input has finished (their shard stopped early)
  BigCount tours;            // when complete: the job's counts
  BigCount closed_tours;
  BigCount cycles;
  double cpu_seconds = 0;  // over every session of every input
  bool complete() const { return units_done == units; }
};

// Combines the run directories of every shard of a frontier count by units of end pairs
// (count --shard-index I --shard-count N) into `out`, a new run directory like one unsharded
// run's: every unit the shards finished, and when that is all of them, the job's counts; its
// manifest lists the inputs (directory, shard, host, Slurm job, commit). A shard counted over
// MPI ranks is given as the directory that holds its ranks.json and rank-* shares. An
// incomplete merge resumes like any run (`count --run-dir OUT --resume` counts the units
// left). Before writing anything it checks every input as verify does (FormatError naming
// the input and its problem) and refuses (UsageError) an input that is not such a shard, one
// of another job or another number of shards, a shard given twice and a shard missing.
FrontierMergeReport merge_frontier_runs(const std::vector<std::filesystem::path>& inputs,
                                        const std::filesystem::path& out,
                                        const Provenance& provenance);

}  // namespace knightstour
