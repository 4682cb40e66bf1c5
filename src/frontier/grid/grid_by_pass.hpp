#pragma once

#include "frontier/progress/job_progress.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/frontier_report.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {

class FrontierJournal;

// Whether an all-starts job with these options counts its grid by the backward pass:
// asked (request.grid), or, automatically, on one process (not over MPI ranks) without a
// journal (the pass keeps its generations in memory only, so a run directory's job takes
// pinned tails, which resume) on a board with at least 3/4 of 2^(W-2) classes of start
// squares, W the sweep's width: the tails then cost more than the pass
// (docs/speed.md (half-turn.md)).
// Where the rule would choose the pass but a journal or ranks rule it out, an info line says
// so. Throws UsageError when the backward pass is asked with a journal or several ranks.
bool chooses_backward_pass(const FrontierRequest& request, const FrontierOptions& options,
                           const FrontierJournal* journal);

namespace frontier_detail {

enum class BackwardOutcome { done, stopped, fell_back };

// The grid by one unpinned sweep, its generations kept, and the pass back over them
// (backward_pass.hpp). The sweep gets a quarter of the memory budget and its kept generations
// half (all of them, or each column's first); the pass's tables, and a column's generations
// recomputed, take the rest. When the generations outgrow their half the sweep is abandoned
// at once (its after_step throws), and when the pass would not fit beside them it is not
// started; either way the job takes pinned tails instead, having lost the sweep's work (at
// most what --total-only costs).
BackwardOutcome grid_by_pass(const Sweep& plain, const FrontierOptions& options, StopControl& stop,
                             FrontierReport& report, JobProgress& progress);

}  // namespace frontier_detail

}  // namespace knightstour
