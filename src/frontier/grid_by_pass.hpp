#pragma once

#include "job_progress.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/frontier_counter.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour::frontier_detail {

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

}  // namespace knightstour::frontier_detail
