#pragma once

#include <string>
#include <string_view>

namespace knightstour {

enum class Algorithm {
  pruned,  // the kernel with the pruning rules of search_state.hpp
  naive,   // plain backtracking, for comparison and teaching
};

std::string to_string(Algorithm algorithm);
Algorithm parse_algorithm(std::string_view text);  // throws UsageError

// What is searched: the rules that decide the tree, and so the prefix numbering.
struct SearchMode {
  Algorithm algorithm = Algorithm::pruned;
  bool closed = false;  // only closed tours (last square a knight move from the start)

  // Names the rules the prefix numbering depends on, for manifests: "pruned-v1" or "none".
  std::string prefix_rules() const;
  friend bool operator==(const SearchMode&, const SearchMode&) = default;
};

}  // namespace knightstour
