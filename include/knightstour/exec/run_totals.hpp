#pragma once

#include <cstddef>
#include <cstdint>

#include "knightstour/base/stop_control.hpp"

namespace knightstour {

// What every run reports, counting or enumerating.
struct RunTotals {
  int threads = 0;
  int split_depth = 0;
  std::size_t plan_prefixes = 0;   // prefixes in the whole plan
  std::size_t shard_prefixes = 0;  // prefixes this shard covers
  std::size_t prefixes_done = 0;   // of those, finished (earlier sessions included)
  std::size_t searches = 0;  // prefixes searched this time (the rest: mirror images or done before)
  std::uint64_t tours = 0;   // over finished prefixes: a lower bound unless complete
  std::uint64_t closed = 0;  // of those, ending a knight move from their start
  std::uint64_t nodes = 0;   // nodes searched this time, finished prefixes or not
  std::uint64_t journaled_nodes = 0;  // nodes of the finished prefixes (earlier sessions included)
  double seconds = 0;
  StopReason stop_reason = StopReason::none;

  bool complete() const { return prefixes_done == shard_prefixes; }
};

}  // namespace knightstour
