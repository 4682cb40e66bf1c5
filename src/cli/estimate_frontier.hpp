#pragma once

#include "knightstour/count/count_request.hpp"
#include "knightstour/count/method_choice.hpp"

namespace knightstour::cli {

// `estimate` for a job the frontier method counts: the job itself, counted for `calibrate`
// seconds, then the rest projected from the classes it saw (sweep_outlook). A job that
// finishes in that time prints its exact counts. Returns the exit code.
int estimate_by_frontier(CountRequest request, const MethodChoice& choice, double calibrate,
                         bool json);

}  // namespace knightstour::cli
