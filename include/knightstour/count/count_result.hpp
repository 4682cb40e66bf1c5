#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/count/symmetry_classes.hpp"
#include "knightstour/frontier/frontier_report.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier/wide_count.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// The enumerator's own figures.
struct DfsStatistics {
  std::uint64_t nodes = 0;  // search-tree nodes visited this session
  int split_depth = 0;
  std::size_t plan_prefixes = 0;   // in the whole plan
  std::size_t shard_prefixes = 0;  // this shard's
  std::size_t prefixes_done = 0;   // of those, finished (earlier sessions included)
  std::size_t prefixes_before = 0;
  std::size_t searches = 0;       // searched this session; the rest derived or done before
  std::uint64_t tours_found = 0;  // this session, finished prefixes or not
  Shard shard;
  bool symmetry = true;
  Algorithm algorithm = Algorithm::pruned;
};

// The frontier method's own figures: the sweeps' (as the engine reported them) and the
// count's around them.
struct FrontierStatistics : SweepFigures {
  // How an open all-starts grid was counted (never automatic); nothing for every other job.
  std::optional<GridMethod> grid_method;
  Shard shard;  // by end pairs: the units of this shard
  // The process's anonymous memory (RssAnon) at its largest, sampled every
  // anonymous_sample_seconds: what the budget is meant to bound (0: unknown).
  std::uint64_t peak_anonymous_bytes = 0;
  double anonymous_sample_seconds = 0;
  // MPI ranks that counted together (1: this process alone); with several ranks, memory
  // figures are the largest rank's, exchanged_bytes what they sent each other, and the
  // budget is each rank's.
  int ranks = 1;
  bool mirror_fold = true;  // classes kept up to the mirror across (FrontierOptions::fold_mirror)
  std::string bit_kernel;   // how class keys were packed: "bmi2" or "portable" (bit_kernel.hpp)
  std::uint64_t memory_budget = 0;
  bool budget_asked = false;  // --memory gave it (else it is half of the memory available)
  bool spills = true;         // classes past the budget go to disk (else the budget stops the run)
  std::string spill_off;      // why spilling was off although not asked off (no folder in $TMPDIR)
  double stopped_sweep_classes_left = 0;  // of classes_left, the sweep that stopped's own
  // Stopped with a run directory: the sweep that stopped (its number, as in the manifest and
  // its checkpoint's name) and the step its checkpoint resumes it from (nothing: its start).
  int stopped_sweep = -1;
  int stopped_sweep_steps = 0;  // the steps that sweep takes to its end
  std::optional<int> kept_step;
  double seconds_per_class = 0;  // wall time per class expanded, over the steps finished
};

// The three counts every output names alike (docs/formats.md, "Three counts"): directed
// tours (a tour and its reverse from the other end are two), undirected tours (each path
// once), closed cycles (each closed tour once, whatever its start and direction). Over all
// starts every open path is counted from each end, so the undirected tours are half the
// directed ones, but on one square, which is a tour by itself and its own reverse.
// Counted modulo a prime (`modulus` not 0), the half is taken modulo it too.
BigCount undirected_tours(const BigCount& directed_over_all_starts, std::int64_t squares,
                          std::uint64_t modulus = 0);

// What `count` found, whichever method counted. Counts are exact at any size. When the run
// stopped early the enumerator's counts are lower bounds (from finished prefixes), while the
// frontier method has none (a sweep's partial classes count nothing yet): `counts` says which.
struct CountResult {
  // The job as counted.
  BoardShape shape;
  bool all_starts = false;
  bool total_only = false;  // all starts, open: the total without the tours by start square
  std::vector<std::int64_t> prefix;
  std::optional<std::int64_t> end;  // --end: the tours from the start ending on this square
  bool closed = false;
  Method method = Method::dfs;
  std::string why;  // why this method counted, in a few words

  enum class Counts { exact, lower_bound, none };
  bool complete = false;
  Counts counts = Counts::none;
  StopReason stop_reason = StopReason::none;
  // Not 0: every count below is its residue modulo this prime (count --modulus), never the
  // count itself.
  std::uint64_t modulus = 0;
  BigCount tours;         // directed tours from the start (or prefix), or over all starts
  BigCount closed_tours;  // of those, closed
  // Closed cycles (undirected) when the count covers whole cycles: complete, one start or
  // all starts, not a shard.
  std::optional<BigCount> closed_cycles;
  // Undirected tours (Hamiltonian paths, each once whichever end it is read from) of a
  // complete count of open tours over all starts: half the directed tours (undirected_tours).
  std::optional<BigCount> tours_undirected;
  // By board square: tours from each start (all starts); tours ending on each square
  // (enumerator only; empty from the frontier method).
  std::vector<BigCount> tours_by_start;
  std::vector<BigCount> closed_by_start;
  std::vector<BigCount> tours_by_end;
  // By end pairs (frontier): the tours from s ending on t at [s * squares + t].
  std::vector<BigCount> tours_by_start_end;
  // --every-length (frontier): the counts of each length 1 to the board's columns.
  std::vector<LengthCounts> by_length;
  // A shard's share (units of end pairs): counts are its units' sums, not the job's.
  bool sharded = false;
  // Up to the board's symmetries (count --up-to-symmetry, enumerator): asked, and counted
  // when the run is complete.
  bool classes_asked = false;
  std::optional<SymmetryClasses> classes;

  int threads = 0;
  double seconds = 0;      // this session's wall time
  double cpu_seconds = 0;  // this session's CPU time, all threads
  std::optional<std::filesystem::path> run_dir;
  // With a run directory: its time over every session, as its manifest records it once this
  // session ended (this session's included; a finished run only read adds none).
  struct RunTime {
    double seconds = 0;
    double cpu_seconds = 0;
    int sessions = 0;
  };
  std::optional<RunTime> run_time;
  std::variant<DfsStatistics, FrontierStatistics> statistics;
};

}  // namespace knightstour
