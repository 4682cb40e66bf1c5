#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/request.hpp"

namespace knightstour {

// What a run directory holds: counts only, or tour files.
enum class Command { count, enumerate };
std::string to_string(Command command);

// How a run counts: the enumerator (visits every tour) or the frontier method (counts classes
// of partial paths). A run directory holds the runs of one method; its manifest says which.
enum class Method { dfs, frontier };
std::string to_string(Method method);

enum class RunStatus { incomplete, complete };
std::string to_string(RunStatus status);

// manifest.json of a run directory: what was asked, how far it got, how long it took.
// Written atomically (temp file, fsync, rename) at the start and end of every session.
// Where and by what a session ran, for reproducing a result (informational).
struct Provenance {
  std::string git_commit;    // of the knightstour build
  std::string command_line;  // as typed, shell-quoted
  std::string host;
  std::string cpu_model;
  std::string slurm_job;  // "" outside Slurm
  friend bool operator==(const Provenance&, const Provenance&) = default;
};

// One input of a merged run, as its manifest said (its latest session).
struct MergedInput {
  std::string dir;
  int shard_index = 0;
  std::string host;
  std::string slurm_job;  // "" outside Slurm
  std::string git_commit;
  friend bool operator==(const MergedInput&, const MergedInput&) = default;
};
// How a merged manifest lists the input run in `dir` (either method's merge).
MergedInput merged_input(const std::filesystem::path& dir, int shard_index,
                         const Provenance& provenance);

// Where a frontier run stands (method frontier only). Counts are decimal strings: they
// outgrow 64 bits. The manifest's checksum covers these and the job, so a hand edit that
// would change the answer is refused rather than counted.
struct FrontierProgress {
  bool total_only = false;  // all starts counted as a total (one unpinned sweep), no grid
  // All starts by units of end pairs (frontier_request.hpp's GridMethod::end_pairs): sweep k is
  // unit k, and this directory counts the units of `shard` (its rule plays no part).
  bool end_pairs = false;
  Shard shard;
  // Every length of the row (count --every-length): the boards rows x n for n = 1 to cols.
  // Its units are lengths, not sweeps (frontier_job.hpp's row units): finished holds a count
  // a length, and a sweep across the rows keeps its checkpoint under a number past them.
  bool every_length = false;
  int sweeps_planned = 0;
  std::map<int, std::string> finished;  // sweep index -> that sweep's count
  // When complete: the job's counts, and per start square over all starts.
  std::string tours;
  std::string closed_tours;
  std::string closed_cycles;
  std::vector<std::string> tours_by_start;
  double checkpoint_seconds = 0;  // --checkpoint of the latest session; -1: not recorded
  // Whose files these are. A run over N MPI ranks keeps one directory a rank, each holding
  // that rank's share of every generation: a share is not a count, so a directory records
  // the rank it belongs to, of how many, and the id every rank of one run shares (random,
  // made when the run is created), and every checkpoint in it names the same three.
  int rank = 0;
  int ranks = 1;       // 1: a count of one process
  std::string run_id;  // 16 hex digits; "" in runs written before run ids existed
  friend bool operator==(const FrontierProgress&, const FrontierProgress&) = default;
};

// Fields are typed; they become strings only in to_json() / from_json().
struct RunManifest {
  // Version 3 added the method (and frontier runs); 1 and 2 are enumerator runs; 4 is a
  // frontier run with a sweep journal (sweep_journal.hpp), which knightstour before it would
  // not read; 5 an enumerator run whose manifest and journal lines carry checksums (journal
  // v3). Writes 5 for the enumerator's runs (3 for one of formats 1 to 3, resumed), 4 for the
  // frontier's. Reads 1 to 3 and 5 of the enumerator, 3 and 4 of the frontier.
  static constexpr int kFormatVersion = 5;
  static constexpr int kFrontierFormatVersion = 4;
  Method method = Method::dfs;

  // What was asked. These define the prefixes and the files; a resume must agree on them.
  Command command = Command::count;
  int rows = 0;
  int cols = 0;
  bool all_starts = false;
  std::vector<std::string> prefix;  // square names; prefix[0] is the start
  bool closed_only = false;
  Algorithm algorithm = Algorithm::pruned;
  std::string prefix_rules;
  int split_depth = 0;
  Shard shard;
  std::optional<TourFormat> tour_format;   // enumerate only
  std::optional<Compression> compression;  // enumerate only
  // enumerate --sample N: the directory holds the first N tours in search order (fewer when
  // the board has fewer), written whole, never resumed or merged. 0: not a sample.
  std::uint64_t sample = 0;
  // The enumerator's runs of format 5 on: the manifest and every journal line carry a
  // checksum keyed by the job (dfs_job_key), so that an edit that would change a count, or a
  // line of another job or shard, is refused. Runs of formats 1 to 3 carry none: they are
  // read as they are (an edit that keeps their sums is not seen) and keep their format when
  // resumed or merged.
  bool checksums = true;

  // How it ran (informational; may change from session to session).
  std::string version;
  Provenance provenance;  // of the latest session
  std::uint64_t part_size = 0;
  double checkpoint_seconds = 0;
  int threads = 0;
  bool symmetry = true;
  Caps caps;

  // Where it got to.
  RunStatus status = RunStatus::incomplete;
  StopReason stop_reason = StopReason::none;
  std::size_t prefixes_in_plan = 0;
  std::size_t prefixes = 0;       // in this shard
  std::size_t prefixes_done = 0;  // journaled
  std::uint64_t tours = 0;        // over journaled prefixes
  std::uint64_t closed_tours = 0;
  std::uint64_t nodes = 0;  // over journaled prefixes
  std::uint64_t tour_files = 0;
  std::string created;  // ISO 8601 UTC
  std::string updated;
  double seconds = 0;  // wall time over all sessions
  int sessions = 0;
  double cpu_seconds = 0;            // CPU time over all sessions (merged: over all inputs)
  std::uint64_t nodes_searched = 0;  // over all sessions, interrupted prefixes included
  // merge: every input run (an input that was itself merged contributes its inputs).
  std::vector<MergedInput> inputs;
  FrontierProgress frontier;  // method frontier only

  std::string board_name() const { return std::to_string(rows) + "x" + std::to_string(cols); }
  int squares() const { return rows * cols; }

  std::string to_json() const;
  static RunManifest from_json(const std::string& text, const std::string& where);  // FormatError

  // The fields that define the run and differ between the two, e.g. {"split depth 5 vs 6"}.
  // (For frontier runs: method, board, start or all starts, closed.)
  std::vector<std::string> differences(const RunManifest& other) const;

  // The request the manifest describes (split depth set).
  Request request() const;
  // Fills the "what was asked" part from a resolved request.
  void describe(const Request& request);
};

RunManifest read_manifest(const std::filesystem::path& dir);  // IoError / FormatError

// A frontier run's job and owner as one line of text (board, starts, closed, total only,
// shard, rank and run id): what its checksums are keyed by, so that a file or a line of
// another job or run never checks out as this run's.
std::string frontier_job_key(const RunManifest& manifest);
// An enumerator run's job as one line of text (command, board, start or prefix, closed,
// algorithm and prefix rules, split depth, shard, symmetry, tour files): what its manifest's
// and journal lines' checksums are keyed by.
std::string dfs_job_key(const RunManifest& manifest);
// The method the manifest in `dir` names, read without checking the rest (to send a damaged
// run to the checks of its own method); nothing when there is no readable JSON manifest.
// A directory of MPI ranks' shares (ranks.json, no manifest of its own) is the frontier's.
std::optional<Method> manifest_method(const std::filesystem::path& dir);
void write_manifest(const std::filesystem::path& dir, const RunManifest& manifest);

std::string utc_now_iso8601();

}  // namespace knightstour
