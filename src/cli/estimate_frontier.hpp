#pragma once

#include "knightstour/count/count_request.hpp"
#include "knightstour/count/method_choice.hpp"

namespace knightstour::cli {

// `estimate` for a job the frontier method counts: the job itself, counted for `calibrate`
// seconds, then the rest projected from the classes it saw (sweep_outlook). A job that
// finishes in that time prints its exact counts. With `cores_per_shard` (a job of units of
// end pairs in --shard-count shards) the whole job is calibrated and each shard sized from
// it at that many cores. Returns the exit code.
int estimate_by_frontier(CountRequest request, const MethodChoice& choice, double calibrate,
                         bool json, int cores_per_shard = 0);

}  // namespace knightstour::cli
