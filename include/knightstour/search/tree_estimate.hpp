#pragma once

#include <cstdint>
#include <random>
#include <span>

#include "knightstour/board/board.hpp"
#include "knightstour/search/search_mode.hpp"

namespace knightstour {

// Knuth's estimator (1975) of the size of the search tree below a prefix: walk from the
// prefix to a leaf choosing a child uniformly at random; a node reached after branching
// factors b1, b2, ... stands for b1*b2*... nodes like it, so the sum of those products along
// the walk is an unbiased estimate of the nodes, and the product at a tour leaf of the tours.
// The mean over many walks converges; its spread is reported as a standard error.
struct TreeEstimate {
  double nodes = 0;      // estimated nodes (the mean over the walks)
  double tours = 0;      // estimated tours
  double nodes_var = 0;  // variance of the estimate (sample variance / walks)
  double tours_var = 0;
  std::uint64_t walks = 0;

  // Estimates of disjoint subtrees add up, and so do their variances.
  void add(const TreeEstimate& o) {
    nodes += o.nodes;
    tours += o.tours;
    nodes_var += o.nodes_var;
    tours_var += o.tours_var;
    walks += o.walks;
  }
  double nodes_error() const;  // standard error
  double tours_error() const;
};

// `walks` random walks below one prefix, under the kernel's rules (mode.algorithm pruned or
// naive), counted as the kernel counts nodes.
TreeEstimate estimate_tree(const Board& board, std::span<const std::uint8_t> prefix,
                           SearchMode mode, std::uint64_t walks, std::mt19937_64& rng);

}  // namespace knightstour
