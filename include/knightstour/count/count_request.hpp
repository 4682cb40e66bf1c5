#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

class Ranks;

// Which method counts: `automatic` lets choose_method() pick the faster one for the job.
enum class MethodAsked { automatic, dfs, frontier };
MethodAsked parse_method(const std::string& text);  // UsageError unless auto|dfs|frontier
// --grid auto|tails|pass|end-pairs (`what` names the option in the refusal).
GridMethod parse_grid_method(const std::string& text, const std::string& what = "$grid");

// What `count` is asked, for either method. Fields left empty are taken from the run being
// resumed (and must agree with it when given); a new run needs the board and a start, a
// prefix, or all starts (a closed count without them counts from a1: closed counts are the
// same from every square).
struct CountRequest {
  // What to count.
  std::optional<BoardShape> shape;
  std::optional<bool> all_starts;
  std::vector<std::int64_t> prefix;  // board squares; prefix[0] is the start
  // --end: only the open tours from the start that end on this board square (one start, in
  // one session: no run directory, shards or ranks yet).
  std::optional<std::int64_t> end = std::nullopt;
  std::optional<bool> closed;
  // Also count the tours up to the board's symmetries (enumerator only, in one session).
  bool up_to_symmetry = false;

  // How to count it.
  MethodAsked method = MethodAsked::automatic;
  int threads = 0;  // 0: every CPU this process may use
  Caps caps;        // time_limit: both methods; max_nodes, max_tours: dfs only
  double progress_seconds = 0;
  std::optional<std::filesystem::path> run_dir;
  bool resume = false;
  Provenance provenance;
  // The MPI ranks this process counts with (nullptr: alone); only the frontier method runs
  // over several.
  Ranks* ranks = nullptr;

  // The enumerator's own settings (each refused by the frontier method when given).
  std::optional<Algorithm> algorithm;
  bool no_symmetry = false;
  std::optional<int> split_depth;
  std::optional<Shard> shard;

  // The frontier method's own settings (each refused by the enumerator when given).
  std::optional<std::uint64_t>
      memory_budget;  // --memory: bytes of classes; default: half of what is free
  std::optional<std::string> spill_dir;      // "none": stop at the budget instead of spilling
  std::optional<double> checkpoint_seconds;  // --checkpoint: save classes this often (10m)
  // --modulus P: every count modulo the prime P (FrontierRequest::modulus); --residue-unit K:
  // the modulus is the job's K-th residue prime (residue_primes, from 0).
  std::optional<std::uint64_t> modulus;
  std::optional<int> residue_unit;
  // --total-only: open tours over all starts, the total without the tours from each square
  // (one sweep instead of one per class of start squares).
  bool total_only = false;
  // --every-length: closed, or open with total_only: the board's rows across and every length
  // from 1 to its columns, in one job (FrontierRequest::every_length).
  bool every_length = false;
  // --no-mirror-fold: keep a class and its mirror image apart (FrontierOptions::fold_mirror):
  // about 1.6 times the classes, the same counts summed otherwise, as a second run to check a
  // new count by. Refused with a run directory (its checkpoints would not say which it was).
  bool mirror_fold = true;
  // --grid: how an open all-starts count gets its tours from each square (frontier_request.hpp);
  // empty: KNIGHTSTOUR_GRID, else automatic. A sharded frontier count is by end pairs.
  std::optional<GridMethod> grid;
  // Estimates only: the frontier job without its closed sweep (FrontierRequest). Refused
  // with a run directory.
  bool open_sweeps_only = false;

  // The options given that only one method understands, named as fields ("$split_depth",
  // base/errors.hpp) for messages.
  std::vector<std::string> dfs_options() const;
  // Shards of a frontier count are its units of end pairs: asked with --grid end-pairs or
  // --method frontier, or (method auto) an open all-starts job the frontier method counts.
  bool sharded() const { return shard && shard->count > 1; }
  std::vector<std::string> frontier_options() const;
};

// The rules a count request's own fields keep, whichever method counts it and whatever its
// board or run directory hold: one refusal a rule broken, in the order they are checked, each
// naming the fields it concerns as `$field` (base/errors.hpp; the CLI spells them as flags).
// run_count() refuses the first; the method's, the board's and the run directory's rules are
// checked where they are met.
std::vector<std::string> check(const CountRequest& request);

}  // namespace knightstour
