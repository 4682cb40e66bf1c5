#pragma once

#include "frontier/sweep/job_sweeps.hpp"
#include "knightstour/frontier/frontier_request.hpp"

namespace knightstour::frontier_detail {

// The open tours from each square of the board (the grid) and from each square to each
// other (by end pairs), by the job's grid method, one file each: pinned tails
// (pinned_tails.hpp), the pass back over one unpinned sweep (grid_by_pass.hpp), or units of
// end pairs (end_pair_sweeps.hpp). `backward`: chooses_backward_pass's answer; the pass falls
// back to pinned tails when it does not fit. An all-starts grid comes after the closed sweep
// (the report's cycles, 2C closed tours from each square); units of end pairs run none.
// Fills the report's grid and tours; false when a sweep stopped.
bool count_grid(const FrontierRequest& request, bool backward, JobSweeps& sweeps);

}  // namespace knightstour::frontier_detail
