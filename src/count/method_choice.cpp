#include "knightstour/count/method_choice.hpp"

#include <algorithm>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {

MethodAsked parse_method(const std::string& text) {
  if (text == "auto") return MethodAsked::automatic;
  if (text == "dfs") return MethodAsked::dfs;
  if (text == "frontier") return MethodAsked::frontier;
  throw UsageError("--method expects auto, dfs or frontier, not '" + text + "'");
}

GridMethod parse_grid_method(const std::string& text, const std::string& what) {
  if (text == "auto") return GridMethod::automatic;
  if (text == "tails") return GridMethod::pinned_tails;
  if (text == "pass") return GridMethod::backward_pass;
  if (text == "end-pairs") return GridMethod::end_pairs;
  throw UsageError(what + " expects auto, tails, pass or end-pairs, not '" + text + "'");
}

std::vector<std::string> CountRequest::dfs_options() const {
  std::vector<std::string> out;
  if (prefix.size() > 1) out.push_back("--prefix");
  // Frontier shards are units of end pairs; asked of the frontier, --shard-count is not the
  // enumerator's alone.
  if (sharded() && method != MethodAsked::frontier && grid != GridMethod::end_pairs) {
    out.push_back("--shard-count");
  }
  if (caps.max_nodes > 0) out.push_back("--max-nodes");
  if (caps.max_tours > 0) out.push_back("--max-tours");
  if (algorithm) out.push_back("--algorithm");
  if (no_symmetry) out.push_back("--no-symmetry");
  if (split_depth) out.push_back("--split-depth");
  if (up_to_symmetry) out.push_back("--up-to-symmetry");
  return out;
}

std::vector<std::string> CountRequest::frontier_options() const {
  std::vector<std::string> out;
  if (memory) out.push_back("--memory");
  if (spill_dir) out.push_back("--spill-dir");
  if (checkpoint_seconds) out.push_back("--checkpoint");
  if (total_only) out.push_back("--total-only");
  if (grid) out.push_back("--grid");
  return out;
}

namespace {

constexpr int kMaxDfsSquares = 64;  // Board::kMaxSquares

std::string squares_text(int n) { return std::to_string(n) + " squares"; }

}  // namespace

MethodChoice choose_method(const CountRequest& r) {
  const BoardShape shape = r.shape.value();
  const int squares = static_cast<int>(std::min<std::int64_t>(shape.squares(), 1 << 30));
  const int width = std::min(shape.rows, shape.cols);
  const bool dfs_fits = squares <= kMaxDfsSquares;
  const bool frontier_fits = width <= kMaxFrontierWidth;
  const auto dfs_only = r.dfs_options();
  const auto frontier_only = r.frontier_options();
  const std::string board = shape.name();
  if (!dfs_fits && !frontier_fits) {
    throw UsageError("board " + board + " is too big to count: the enumerator counts at most " +
                     std::to_string(kMaxDfsSquares) +
                     " squares and the frontier method boards whose shorter side is at most " +
                     std::to_string(kMaxFrontierWidth));
  }
  if (!dfs_only.empty() && !frontier_only.empty()) {
    throw UsageError(dfs_only.front() + " needs the enumerator (--method dfs) and " +
                     frontier_only.front() +
                     " the frontier method (--method frontier); give the options of one");
  }
  if (several_ranks(r.ranks) != nullptr) {
    // The enumerator scales out by shards, which need no communication; a job started on
    // several MPI ranks is a frontier job.
    const std::string why =
        "the enumerator does not run over MPI ranks (it scales out with "
        "--shard-index/--shard-count)";
    if (r.method == MethodAsked::dfs) throw UsageError(why + "; leave out --method dfs");
    if (!dfs_only.empty()) throw UsageError(dfs_only.front() + " needs the enumerator, and " + why);
    if (!frontier_fits) {
      throw UsageError("board " + board + " is " + std::to_string(width) +
                       " wide; the frontier method, the one that runs over MPI ranks, counts "
                       "boards whose shorter side is at most " +
                       std::to_string(kMaxFrontierWidth));
    }
    return {Method::frontier, "started on " + std::to_string(r.ranks->size()) +
                                  " MPI ranks: the frontier method runs over them"};
  }
  switch (r.method) {
    case MethodAsked::dfs:
      if (!dfs_fits) {
        throw UsageError("board " + board + " has " + squares_text(squares) +
                         "; --method dfs counts at most " + std::to_string(kMaxDfsSquares) +
                         " (leave out --method: the frontier method counts it)");
      }
      if (!frontier_only.empty()) {
        throw UsageError(frontier_only.front() +
                         " applies to the frontier method only (leave out --method dfs)");
      }
      return {Method::dfs, "as asked with --method dfs"};
    case MethodAsked::frontier:
      if (!dfs_only.empty()) {
        throw UsageError(dfs_only.front() +
                         " has no meaning for --method frontier (it counts classes of partial "
                         "paths, not prefixes; use --method dfs)");
      }
      if (!frontier_fits) {
        throw UsageError("board " + board + " is " + std::to_string(width) +
                         " wide; the frontier method counts boards whose shorter side is at "
                         "most " +
                         std::to_string(kMaxFrontierWidth) +
                         " (leave out --method: the enumerator counts it)");
      }
      return {Method::frontier, "as asked with --method frontier"};
    case MethodAsked::automatic:
      break;
  }
  // A sharded open all-starts job that the frontier method would count whole: its shards are
  // units of end pairs (the enumerator's shards of such a board would not finish either).
  const bool open_all = !r.closed.value_or(false) && r.all_starts.value_or(false);
  if (dfs_only == std::vector<std::string>{"--shard-count"} && open_all && frontier_fits &&
      squares >= kFrontierOpenSquares && r.prefix.size() <= 1) {
    return {Method::frontier, "open, all starts from " + squares_text(kFrontierOpenSquares) +
                                  " on, in shards of units of end pairs"};
  }
  if (!dfs_only.empty()) {
    if (!dfs_fits) {
      throw UsageError(dfs_only.front() + " needs the enumerator, which counts at most " +
                       std::to_string(kMaxDfsSquares) + " squares; " + board + " has " +
                       squares_text(squares));
    }
    return {Method::dfs, dfs_only.front() + " needs the enumerator"};
  }
  if (!frontier_only.empty()) {
    if (!frontier_fits) {
      throw UsageError(frontier_only.front() + " needs the frontier method, which counts boards " +
                       "whose shorter side is at most " + std::to_string(kMaxFrontierWidth));
    }
    return {Method::frontier, frontier_only.front() + " needs the frontier method"};
  }
  if (!dfs_fits) return {Method::frontier, "past 64 squares only the frontier method counts"};
  if (!frontier_fits) return {Method::dfs, "too wide for the frontier method"};
  const bool closed = r.closed.value_or(false);
  const bool all = r.all_starts.value_or(false);
  const int from = !closed ? kFrontierOpenSquares
                   : all   ? kFrontierClosedAllStartsSquares
                           : kFrontierClosedSquares;
  const std::string job = closed ? (all ? "closed, all starts" : "closed, one start")
                                 : (all ? "open, all starts" : "open, one start");
  if (squares >= from) {
    return {Method::frontier, "faster for " + job + " from " + squares_text(from) + " on"};
  }
  return {Method::dfs, "faster for " + job + " below " + squares_text(from)};
}

}  // namespace knightstour
