#pragma once

#include <cstdint>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"

namespace knightstour {

struct ExactSearchOptions {
  bool closed = false;
  std::uint64_t max_nodes = 0;  // 0: no cap
  std::uint64_t seed = 0;       // breaks ties between equally constrained moves
  StopControl* stop = nullptr;
};

struct ExactSearchResult {
  enum class Outcome { found, none, stopped } outcome = Outcome::stopped;
  std::vector<std::uint32_t> tour;
  std::uint64_t nodes = 0;
};

// Depth-first search for one tour from `start` on a board of any size, exhaustive unless
// capped: `none` is a proof that no tour exists. It applies the kernel's pruning rules
// (search_state.hpp: dead ends, forced moves, a single possible last square, colour parity)
// on arrays instead of bitboards, tries the most constrained move first (Warnsdorff
// ordering, ties broken by the seed), and keeps its own stack, so depth is not limited by
// the thread's stack.
ExactSearchResult exact_tour_search(const BoardShape& shape, std::uint32_t start,
                                    const ExactSearchOptions& options);

}  // namespace knightstour
