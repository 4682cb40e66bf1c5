#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "command_line.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/count/count_request.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/run/job_runner.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitStopped = 3;
inline constexpr int kExitVerifyFailed = 4;
inline constexpr int kExitNoTour = 5;

// The job options of count and enumerate (and, in part, prefixes and estimate).
// `with_caps`: the stopping caps (max-nodes, max-tours, time-limit), for commands that search.
void add_job_options(cxxopts::Options& options, bool with_caps = true);
// The options count and estimate share, each defined once: --end, --total-only,
// --every-length, --method, --memory, --residue-unit.
void add_count_options(cxxopts::Options& options);

// The job options of add_job_options, parsed and validated: what to search, and how.
struct JobOptions {
  Request request;
  int threads = 0;  // 0: every CPU this process may use
  Caps caps;
  double progress_seconds = 0;
  bool json = false;
};
// The enumerator's job options: search_options_from() made the enumerator's Request by
// enumerator_request() (dfs_request(), as count does, with the start said). With `resumed` (the
// manifest of the run being resumed), what the command line leaves out is taken from it: board,
// start or prefix or all starts, closed, algorithm, symmetry, split depth, shard. What it does give
// must agree with the manifest (the run session checks).
JobOptions job_options_from(const cxxopts::ParseResult& result,
                            const RunManifest* resumed = nullptr);

// With --resume: the manifest of the run in the directory option `dir_option` ("run-dir" for
// count, "out" for enumerate); a UsageError when that option is missing or the directory holds
// no run. Without --resume: nothing.
std::optional<RunManifest> manifest_to_resume(const cxxopts::ParseResult& result,
                                              const std::string& dir_option);

// The job a count or enumerate command line asks for: the parsed job options, the run
// directory `dir_option` when given, and whether it is resumed.
JobRequest job_request(Command command, const JobOptions& parsed,
                       const cxxopts::ParseResult& result, const std::string& dir_option);

// What to search, as every command that searches takes it (the one parser of those options):
// the board, the start, prefix or all starts, closed, the enumerator's algorithm, symmetry,
// split depth and shard, the caps, threads and progress. What the command line leaves out
// stays empty. `resumed_board`: the board of the run being resumed, for a --start or
// --prefix given without the BOARD (count refuses that: nothing).
CountRequest search_options_from(const cxxopts::ParseResult& result,
                                 std::optional<BoardShape> resumed_board);

// count and enumerate: refuses --shard-count without --shard-index (estimate takes it alone,
// to size every shard).
void require_shard_index(const cxxopts::ParseResult& result);

// The command line of count (or estimate) as a CountRequest: search_options_from() and
// count's own options (--end, --method, the run directory, the frontier's settings); what it
// leaves out stays empty (a resume fills it from the run directory). Every value is checked
// here; which method may take it, in choose_method().
CountRequest count_request_from(const cxxopts::ParseResult& result);

// The positional BOARD argument (a UsageError when missing).
std::string board_argument(const cxxopts::ParseResult& result);

}  // namespace knightstour::cli
