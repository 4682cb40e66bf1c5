#pragma once

#include <cstdint>

#include "knightstour/plan/job.hpp"
#include "knightstour/search/tree_estimate.hpp"

namespace knightstour {

struct JobEstimate {
  TreeEstimate searched;  // nodes and tours below the prefixes a run searches
  double tours = 0;       // all tours of the job (mirror-image prefixes included)
  double tours_var = 0;
  std::size_t prefixes = 0;  // in the plan (this shard)
  std::size_t searches = 0;  // searched; the rest are mirror images
  std::uint64_t walks = 0;
};

// A sampled estimate of what `count` would do for a resolved job: Knuth walks spread evenly
// over the prefixes it would search (stratified sampling: the errors of the strata add),
// on job.threads threads, deterministic for a seed.
JobEstimate estimate_job(const JobSpec& job, std::uint64_t walks, std::uint64_t seed);

}  // namespace knightstour
