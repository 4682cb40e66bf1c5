#pragma once

#include <cstdint>
#include <span>

#include "knightstour/plan/job.hpp"
#include "knightstour/search/kernel.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

// Searches the tours that begin with `prefix` with the job's algorithm (pruned or naive),
// feeding `visitor`; `nodes` gets the nodes searched, and `poll` sees them all at the end.
// Returns false when `poll` stopped the search before the end.
template <class Visitor, class Poll>
bool search_prefix(const JobSpec& job, std::span<const std::uint8_t> prefix,
                   std::uint64_t poll_interval, Visitor& visitor, Poll& poll,
                   std::uint64_t& nodes) {
  const KernelOptions options{job.mode.closed, poll_interval};
  const int length = static_cast<int>(prefix.size());
  bool finished = true;
  nodes = 0;
  if (job.mode.algorithm == Algorithm::naive) {
    Bitboard free = job.board.all();
    for (auto s : prefix) free &= ~bit(s);
    NaiveKernel<Visitor, Poll> kernel(job.board, options, visitor, poll);
    finished = kernel.run(free, prefix.data(), length);
    nodes = kernel.nodes();
  } else if (const auto root = make_state(job.board, prefix, job.mode.closed)) {
    PrunedKernel<Visitor, Poll> kernel(job.board, options, visitor, poll);
    finished = kernel.run(*root, prefix.data(), length);
    nodes = kernel.nodes();
  }  // else: the prefix is already dead, no tours
  poll(nodes);
  return finished;
}

}  // namespace knightstour
