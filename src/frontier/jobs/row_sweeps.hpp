#pragma once

#include "frontier/sweep/job_sweeps.hpp"
#include "knightstour/frontier/frontier_job.hpp"

namespace knightstour::frontier_detail {

// A row of every length (FrontierRequest::every_length): the closed cycles, and for open
// total-only jobs the paths, of the boards K x n for n = 1 to N (K the board's rows, at
// most 9; N its columns) into report.by_length. The lengths below K are each counted alone
// (across their columns, the shorter side); from K on one sweep of each kind across the rows
// counts them on its way (shorter_boards.hpp) instead of a sweep each. (A board of an odd
// number of squares has no closed tour, its knight graph being bipartite: with K odd, closed
// rows sweep the even lengths.) False when a sweep stopped. With a journal each length is a
// unit of its own (frontier_job.hpp's row_sweeps_across), kept as soon as it is counted.
bool count_every_length(const FrontierRequest& request, const FrontierOptions& watched,
                        FrontierReport& report, JobSweeps& sweeps);

// The sweeps count_every_length runs for `request`; of them, those across the rows.
int row_sweeps_planned(const FrontierRequest& request);
int row_sweeps_across(const FrontierRequest& request);
// The journal's unit of length n: closed cycles, or (closed false) paths.
int unit_of(int columns, bool closed, int n);

}  // namespace knightstour::frontier_detail
