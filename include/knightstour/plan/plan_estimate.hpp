#pragma once

#include <cstdint>

#include "knightstour/plan/plan.hpp"
#include "knightstour/search/tree_estimate.hpp"

namespace knightstour {

struct PlanEstimate {
  TreeEstimate searched;  // nodes and tours below the prefixes a run searches
  double tours = 0;       // all tours of the shard (mirror-image prefixes included)
  double tours_var = 0;
  std::size_t prefixes = 0;  // in this shard
  std::size_t searches = 0;  // searched; the rest are mirror images
  std::uint64_t walks = 0;
  bool interrupted = false;  // SIGINT/SIGTERM: from the walks done so far (every prefix had some)
};

// A sampled estimate of what counting this plan's shard would do: Knuth walks spread evenly
// over the prefixes it would search (stratified sampling: the errors of the strata add), on
// `threads` threads, deterministic for a seed. A stop signal ends the walks early: the
// estimate then comes from the walks done (interrupted), or is an Interrupted error when
// some prefix had none.
PlanEstimate estimate_plan(const Plan& plan, std::uint64_t walks, std::uint64_t seed, int threads);

}  // namespace knightstour
