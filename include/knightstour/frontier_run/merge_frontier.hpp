#pragma once

#include <cstdint>
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
  // Residue units: the primes whose residues gave the counts, then the spares that agreed.
  std::vector<std::uint64_t> moduli;
  std::vector<std::uint64_t> spares;
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
//
// Residue units (count --modulus P, each complete) merge instead into the exact count: `out`
// is then a finished run of exact counts, as one run without a modulus would leave it. Every
// count (each sweep's or length's, the totals, the tours from each square) is recovered by
// the Chinese remainder theorem from the residues modulo the job's residue_primes() but the
// last, and each spare residue (the last planned prime, and any other prime given) must agree:
// else FormatError naming the prime and the count, and nothing is written. Refused
// (UsageError): a unit of another job, a prime given twice, a planned prime missing (named),
// a unit not finished, or exact counts among residues.
FrontierMergeReport merge_frontier_runs(const std::vector<std::filesystem::path>& inputs,
                                        const std::filesystem::path& out,
                                        const Provenance& provenance);

}  // namespace knightstour
