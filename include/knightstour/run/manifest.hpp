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
// The manifest's common fields are read and written here; the enumerator's section too (this
// layer is the enumerator's), the frontier's in frontier_run/frontier_manifest.hpp.
enum class Method { dfs, frontier };
// Each method's name in a manifest, in the enum's order.
inline constexpr std::string_view kMethodNames[] = {"dfs", "frontier"};
std::string to_string(Method method);
std::optional<Method> parse_method(std::string_view name);

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

// Fields are typed; they become strings only in to_json() / from_json().
struct RunManifest {
  // Version 3 added the method (and frontier runs); 1 and 2 are enumerator runs; 4 a frontier
  // run with a sweep journal (FrontierManifest); 5 an enumerator run whose manifest and
  // journal lines carry checksums (journal v3). Writes 5 for the enumerator's runs (3 for one
  // of formats 1 to 3, resumed). Reads 1 to 3 and 5 of the enumerator; no method's manifest
  // passes 5.
  static constexpr int kFormatVersion = 5;
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

  std::string board_name() const { return std::to_string(rows) + "x" + std::to_string(cols); }
  int squares() const { return rows * cols; }

  // An enumerator run's manifest. (Another method's is written by its layer, which adds its
  // section to the common fields, src/run/manifest_json.hpp; write_manifest refuses it.)
  std::string to_json() const;
  // The common fields, and the enumerator's when the method is dfs (checked whole, checksum
  // and all). Another method's section is left to its layer, which reads the text again:
  // what this returns of such a manifest holds no count. FormatError names `where`.
  static RunManifest from_json(const std::string& text, const std::string& where);

  // The fields that define the run and differ between the two, e.g. {"split depth 5 vs 6"}.
  // (For frontier runs: method, board, start or all starts, closed.)
  std::vector<std::string> differences(const RunManifest& other) const;

  // The request the manifest describes (split depth set).
  Request request() const;
  // Fills the "what was asked" part from a resolved request.
  void describe(const Request& request);
};

RunManifest read_manifest(const std::filesystem::path& dir);  // IoError / FormatError

// An enumerator run's job as one line of text (command, board, start or prefix, closed,
// algorithm and prefix rules, split depth, shard, symmetry, tour files): what its manifest's
// and journal lines' checksums are keyed by.
std::string dfs_job_key(const RunManifest& manifest);
// The method the manifest in `dir` names, read without checking the rest (to send a damaged
// run to the checks of its own method); nothing when there is no readable JSON manifest (a
// directory of MPI ranks' shares has none: frontier_run's holds_frontier_run()).
std::optional<Method> manifest_method(const std::filesystem::path& dir);
// Writes an enumerator run's manifest; std::logic_error for another method's, whose layer
// writes it (its section would be lost).
void write_manifest(const std::filesystem::path& dir, const RunManifest& manifest);

std::string utc_now_iso8601();

}  // namespace knightstour
