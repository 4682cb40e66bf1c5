#pragma once

#include <cstddef>
#include <functional>

#include "knightstour/base/stop_control.hpp"

namespace knightstour {

// Runs body(i) for every i in [0, n) on `threads` oneTBB worker threads, one task per item
// (work stealing balances uneven items), roughly in ascending order. Items not yet started
// are skipped once `stop` is set. The first exception a body throws sets the stop flag
// (StopReason::failure), lets the running items end, and is rethrown here.
// `prepare`, when given, runs first inside the same thread arena (it may use TBB itself, as
// order_largest_first does), so the workers are already awake when the items start.
void for_each_work_item(std::size_t n, int threads, StopControl& stop,
                        const std::function<void(std::size_t)>& body,
                        const std::function<void()>& prepare = {});

}  // namespace knightstour
