#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/search/search_mode.hpp"

namespace knightstour {

// How a sharded job's prefixes are dealt to shards.
enum class ShardRule : std::uint8_t {
  // Whole symmetry orbits: the k-th orbit (in order of its lowest id) goes to shard k mod count,
  // so a prefix travels with its mirror images and no shard searches what another derives.
  orbits,
  // Prefix ids: {id : id mod count == index}. Runs written before format 2 used it; each shard
  // then searches a representative for every mirror image it holds (up to |group| times the work).
  ids,
};

// One shard of a job: which of `count` parts, dealt by `rule` (see Plan::in_shard).
struct Shard {
  int index = 0;
  int count = 1;
  ShardRule rule = ShardRule::orbits;

  friend bool operator==(const Shard&, const Shard&) = default;
};

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
