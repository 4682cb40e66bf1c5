#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/plan/work_list.hpp"

namespace knightstour {

// Puts the work items in the order the parallel loop should start them: largest estimated
// subtree first (a few Knuth walks each, in parallel), so the last items to start are
// small and the threads run out of work together. Results do not depend on the order.
// Returns the estimated sizes (nodes) in the new order, for progress reports. The sampling
// (up to a second for a long job) honours the time limit and signals through `stop`; once
// stopped, the order is left as it is.
std::vector<double> order_largest_first(std::vector<WorkItem>& items, const Plan& plan,
                                        StopControl& stop);

// How much of a session's work is done, weighted by the sampled subtree sizes: prefix
// counts are a poor measure when the largest prefixes run first.
class WorkMeter {
 public:
  void set_sizes(std::vector<double> sizes);
  void finished(std::size_t item);                // thread-safe
  double fraction() const;                        // 0 when nothing is known yet
  double total() const { return total_.load(); }  // estimated nodes of the whole session

  // Seconds left: the estimated nodes not yet searched at the rate seen so far (or -1).
  double eta(double nodes_searched, double elapsed) const;

 private:
  std::vector<double> sizes_;           // read by finished() only after set_sizes()
  std::atomic<double> total_{0};        // read by the progress thread at any time
  std::atomic<std::uint64_t> done_{0};  // in units of total / 2^40
};

}  // namespace knightstour
