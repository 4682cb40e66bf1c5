#pragma once

// The jobs run_count() hands a count to, one file each: the enumerator (count_by_dfs.cpp),
// the frontier method (count_by_frontier.cpp), a resumed run (resume_count.cpp) and a count
// over MPI ranks (count_over_ranks.cpp). Private to count/.

#include <cstdint>
#include <filesystem>
#include <optional>

#include "knightstour/count/count_request.hpp"
#include "knightstour/count/count_result.hpp"
#include "knightstour/count/frontier_plan.hpp"
#include "knightstour/count/method_choice.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour::count_detail {

// Whether `r` counts closed tours, when it resumes a run whose closed flag is `run_closed`:
// a command line that names the job (a board, a start or all starts) asks for open tours
// unless it says --closed, so that a resume with the job written out is checked against the
// run, never silently counted as the run says; a bare --resume takes the run's.
bool closed_asked(const CountRequest& r, std::optional<bool> run_closed);

// The enumerator's count of `r` (`resumed`: the manifest of the run it continues).
CountResult count_dfs(const CountRequest& r, const MethodChoice& choice,
                      const RunManifest* resumed);

// The frontier method's count by `plan`, kept in `run` when there is one.
CountResult count_frontier(const CountRequest& r, const FrontierPlan& plan,
                           std::optional<FrontierRunDir> run);

// A finished frontier run in `dir` (checked as read_frontier_run() checks it), whose manifest is
// `m` and job `f`: its counts, from the manifest alone, and by units of end pairs the
// start x end table from its units.
CountResult finished_frontier(const std::filesystem::path& dir, const FrontierManifest& m,
                              const FrontierRequest& f, const MethodChoice& choice);

// The prime of residue unit `unit` of the job `f` (--residue-unit); UsageError, naming the
// units there are, when the job has no such unit.
std::uint64_t residue_unit_prime(const FrontierRequest& f, int unit);

// The run in `dir` is counted by `method`: a resume may not ask for the other method or
// give the other method's options.
void check_resumable(Method method, const CountRequest& r, const std::filesystem::path& dir);

// A frontier run opened to continue, and the plan it continues by.
struct ResumedFrontier {
  FrontierPlan plan;
  FrontierRunDir run;
};

// The frontier run in the locked `dir`, checked as verify checks it (read_frontier_run),
// opened to continue `r`.
ResumedFrontier open_frontier(const CountRequest& r, const std::filesystem::path& dir,
                              RunDirectory locked);

// Continues the run in r.run_dir, by the method it was counted by.
CountResult resume(const CountRequest& r);

// A count over several ranks with a run directory: a new one, or one resumed.
CountResult count_over_ranks(const CountRequest& asked);

}  // namespace knightstour::count_detail
