#pragma once

#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/frontier/frontier_report.hpp"

namespace knightstour::frontier_detail {

// Adds a run's figures to the report; a run that is a sweep's own (not a shared prefix's
// stretch) counts as a sweep.
void add_to_report(FrontierReport& report, const FrontierResult& r, bool is_sweep = true);

}  // namespace knightstour::frontier_detail
