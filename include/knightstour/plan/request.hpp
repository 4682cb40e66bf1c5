#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "knightstour/base/shard.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/search/search_mode.hpp"

namespace knightstour {

// What a user asks to search: the tours, the rules of the tree, how it is cut into numbered
// prefixes and which shard of them. Not how the search runs (threads, caps, files): that
// lives beside it, so two runs of one request on different machines do the same work.
struct Request {
  Board board{1, 1};
  bool all_starts = false;
  std::vector<std::uint8_t> prefix;  // prefix[0] is the start (unless all_starts)
  SearchMode mode;
  bool symmetry = true;            // derive the counts of mirror-image prefixes, not search them
  std::optional<int> split_depth;  // nothing: chosen by choose_split_depth()
  Shard shard;

  // The paths the prefixes extend: every square for all_starts, else the prefix.
  std::vector<std::vector<std::uint8_t>> roots() const;
  // Squares of the longest root minus one: the smallest split depth there is.
  int root_depth() const;
  friend bool operator==(const Request&, const Request&) = default;
};

// Throws UsageError unless `path` is a knight path without repeated squares.
void validate_path(const Board& board, std::span<const std::uint8_t> path, const char* what);

}  // namespace knightstour
