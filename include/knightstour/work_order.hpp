#pragma once

#include <vector>

#include "knightstour/job.hpp"
#include "knightstour/prefix_plan.hpp"
#include "knightstour/work_list.hpp"

namespace knightstour {

// Puts the work items in the order the parallel loop should start them: largest estimated
// subtree first (a few Knuth walks each, in parallel), so the last items to start are
// small and the threads run out of work together. Results do not depend on the order.
void order_largest_first(std::vector<WorkItem>& items, const PrefixPlan& plan, const JobSpec& job);

}  // namespace knightstour
