#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/wide_count.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// Where one run directory stands, of either method (a frontier run over MPI ranks by its rank
// 0's share), read as verify and --resume read it but without a lock and without writing a
// byte: `knightstour status` shows a run while it runs, and a result on a read-only disk.
struct RunStanding {
  std::filesystem::path dir;
  Method method = Method::dfs;
  std::string job;  // "6x7 open, all starts by end pairs"; a residue unit's without its modulus
  // The job whatever the shard: shards of one job, and only they, have equal keys.
  std::string job_key;
  std::string unit;  // what it counts by: "unit" (of end pairs), "sweep", "prefix" or "count"
  // What is under way, when not units: a row's sweeps across the rows (its units are counts,
  // one a length and kind, frontier_job.hpp's row_sweeps_across).
  std::string under_way_unit;
  Shard shard;    // a residue unit's: unit K of the job's N primes (residue_primes)
  int ranks = 1;  // MPI ranks the frontier run is counted over
  bool merged = false;
  std::uint64_t planned = 0;  // units, sweeps or prefixes of this shard
  std::uint64_t done = 0;     // of those, finished
  // The job's whole plan (every shard's), for totals over shards.
  std::uint64_t planned_in_job = 0;
  // Frontier: sweeps under way, with the step their checkpoint resumes at.
  std::vector<std::pair<int, int>> under_way;
  RunStatus status = RunStatus::incomplete;
  StopReason stop_reason = StopReason::none;
  double cpu_seconds = 0;  // over every session (a merge: of every input)
  double seconds = 0;
  int sessions = 0;
  // The counts when complete (this shard's share for a shard of several); the enumerator's
  // counts so far when not (lower bounds).
  // A residue unit (count --modulus): its counts are residues modulo this prime (0: counts).
  std::uint64_t modulus = 0;
  std::optional<BigCount> tours;
  std::optional<BigCount> closed_tours;
  std::optional<BigCount> closed_cycles;
  std::string problem;         // what verify or --resume would refuse ("" when it reads)
  std::optional<int> running;  // the process counting it now, when one is
  bool complete() const { return status == RunStatus::complete; }
};

// Reads the run in `dir` (a manifest, or ranks.json with rank-*/); a run that does not read
// comes back with `problem` set rather than as an exception.
RunStanding read_standing(const std::filesystem::path& dir);

// The job as this run counts it: a residue unit's with ", modulo P".
std::string job_text(const RunStanding& s);

// What one share of a job is called: "shard", or "residue unit" (a count modulo a prime).
std::string share_name(const RunStanding& s);

// Whether `dir` holds a run (a manifest.json, or the ranks.json of a run over MPI ranks).
bool holds_run(const std::filesystem::path& dir);

// Over the shards of a job (a merge of them aside): what is done, what is left and roughly
// what it costs at the mean of what is done.
struct JobTotals {
  std::uint64_t planned = 0;  // the job's, when the shards agree on it
  std::uint64_t done = 0;
  double cpu_seconds = 0;
  int shards_found = 0;
  int shard_count = 1;
  int complete = 0;
  int running = 0;
  std::string unit = "unit";
  bool residues = false;          // the shards are residue units: their counts do not sum
  std::optional<BigCount> tours;  // summed over complete shards, when all are
  // Why the shards found are not a set merge would take (no total is summed then): a shard
  // damaged, of another job, given twice, or missing.
  std::vector<std::string> problems;
  double cpu_left() const;
};

// Where the runs in a directory stand: the directory's own run, or (a root) its folders that
// hold one, a job's shards by index and its merged run last, with their totals.
struct Standing {
  std::filesystem::path dir;
  bool root = false;
  std::vector<RunStanding> runs;
  JobTotals totals;  // of a root's shards
  // The job scripts/slurm/submit recorded in a root ("shards 4: knightstour count ..."), or ""
  // where there is none.
  std::string submitted;
  bool readable() const;  // every run reads
};

// Reads the standing of `dir`, a run directory or a folder of them. Refused (UsageError): a
// path that cannot be read, or a folder holding no run and no submitted job.
Standing read_standings(const std::filesystem::path& dir);

}  // namespace knightstour
