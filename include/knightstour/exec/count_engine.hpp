#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/exec/run_totals.hpp"
#include "knightstour/plan/job.hpp"

namespace knightstour {

// The result of one prefix (work unit).
struct PrefixCounts {
  std::uint64_t tours = 0;            // directed tours that begin with the prefix
  std::uint64_t closed = 0;           // of these, the ones whose last square is next to the start
  std::uint64_t nodes = 0;            // nodes searched for it; 0 when derived from a mirror image
  double seconds = 0;                 // search time; 0 when derived
  std::vector<std::uint64_t> by_end;  // tours by last square, one entry per square
};

struct CountOptions {
  double progress_seconds = 0;  // status log period, 0 = off
  // Called once per finished prefix, never concurrently, in no particular order.
  std::function<void(std::size_t id, std::span<const std::uint8_t> prefix, const PrefixCounts&)>
      on_prefix_done;
  // Results of prefixes finished by an earlier run (resume), indexed by prefix id; those
  // prefixes are not searched again but count in the totals.
  std::vector<std::optional<PrefixCounts>> done_before;
  // Sample the prefixes' sizes first and start the largest (up to a second on a long job;
  // better balance and a progress ETA). Off, the time goes to the search alone.
  bool largest_first = true;
};

struct CountReport : RunTotals {
  std::vector<std::uint64_t> tours_by_start;  // one entry per square
  std::vector<std::uint64_t> closed_by_start;
  std::vector<std::uint64_t> tours_by_end;
};

// Counts every tour of a resolved job (see resolve()) on job.threads threads. Totals are
// identical for any thread count and split depth; a stopped run reports the prefixes that
// finished, which are lower bounds.
CountReport run_count(const JobSpec& job, const CountOptions& options, StopControl& stop);

}  // namespace knightstour
