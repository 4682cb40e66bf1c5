#pragma once

#include <cstdint>
#include <span>

#include "knightstour/board/board.hpp"
#include "knightstour/search/kernel.hpp"
#include "knightstour/search/search_mode.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

// Searches the tours that begin with `prefix` with the mode's algorithm (pruned or naive),
// feeding `visitor`; `nodes` gets the nodes searched, and `poll` sees them all at the end.
// Returns false when `poll` stopped the search before the end.
template <class Visitor, class Poll>
bool search_prefix(const Board& board, SearchMode mode, std::span<const std::uint8_t> prefix,
                   std::uint64_t poll_interval, Visitor& visitor, Poll& poll,
                   std::uint64_t& nodes) {
  const KernelOptions options{mode.closed, poll_interval};
  const int length = static_cast<int>(prefix.size());
  bool finished = true;
  nodes = 0;
  if (mode.algorithm == Algorithm::naive) {
    Bitboard free = board.all();
    for (auto s : prefix) free &= ~bit(s);
    NaiveKernel<Visitor, Poll> kernel(board, options, visitor, poll);
    finished = kernel.run(free, prefix.data(), length);
    nodes = kernel.nodes();
  } else if (const auto root = make_state(board, prefix, mode.closed)) {
    PrunedKernel<Visitor, Poll> kernel(board, options, visitor, poll);
    finished = kernel.run(*root, prefix.data(), length);
    nodes = kernel.nodes();
  }  // else: the prefix is already dead, no tours
  poll(nodes);
  return finished;
}

}  // namespace knightstour
