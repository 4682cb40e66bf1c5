#include "knightstour/count/method_choice.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {

MethodAsked parse_method(const std::string& text) {
  if (text == "auto") return MethodAsked::automatic;
  if (text == "dfs") return MethodAsked::dfs;
  if (text == "frontier") return MethodAsked::frontier;
  throw UsageError("$method expects auto, dfs or frontier, not '" + text + "'");
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
  if (prefix.size() > 1) out.push_back("$prefix");
  // Frontier shards are units of end pairs; asked of the frontier, --shard-count is not the
  // enumerator's alone.
  if (sharded() && method != MethodAsked::frontier && grid != GridMethod::end_pairs) {
    out.push_back("$shard_count");
  }
  if (caps.max_nodes > 0) out.push_back("$max_nodes");
  if (caps.max_tours > 0) out.push_back("$max_tours");
  if (algorithm) out.push_back("$algorithm");
  if (no_symmetry) out.push_back("$no_symmetry");
  if (split_depth) out.push_back("$split_depth");
  if (up_to_symmetry) out.push_back("$up_to_symmetry");
  return out;
}

// --total-only is either method's: the enumerator prints the total of the count it runs, and
// the frontier method runs one unpinned sweep instead of the grid's. The method is the one the
// count with the grid would get, so the total alone never costs more than with the grid.
std::vector<std::string> CountRequest::frontier_options() const {
  std::vector<std::string> out;
  if (memory_budget) out.push_back("$memory_budget");
  if (spill_dir) out.push_back("$spill_dir");
  if (checkpoint_seconds) out.push_back("$checkpoint_seconds");
  if (grid) out.push_back("$grid");
  if (every_length) out.push_back("$every_length");
  if (!mirror_fold) out.push_back("$no_mirror_fold");
  if (modulus) out.push_back("$modulus");
  if (residue_unit) out.push_back("$residue_unit");
  return out;
}

namespace {

constexpr int kMaxDfsSquares = 64;  // Board::kMaxSquares

std::string squares_text(int n) { return std::to_string(n) + " squares"; }

// What decides the method: the board against what each method counts, and the options that
// only one method takes.
struct Fit {
  std::string board;
  int squares = 0;
  int width = 0;
  bool dfs_fits = false;
  bool frontier_fits = false;
  std::vector<std::string> dfs_only;
  std::vector<std::string> frontier_only;
};

Fit fit_of(const CountRequest& r) {
  const BoardShape shape = r.shape.value();
  Fit f;
  f.board = shape.name();
  f.squares = static_cast<int>(std::min<std::int64_t>(shape.squares(), 1 << 30));
  f.width = std::min(shape.rows, shape.cols);
  f.dfs_fits = f.squares <= kMaxDfsSquares;
  f.frontier_fits = f.width <= kMaxFrontierWidth;
  f.dfs_only = r.dfs_options();
  f.frontier_only = r.frontier_options();
  return f;
}

// A job started on several MPI ranks is a frontier job: the enumerator scales out by shards,
// which need no communication.
MethodChoice over_ranks(const CountRequest& r, const Fit& f) {
  const std::string why =
      "the enumerator does not run over MPI ranks (it scales out with "
      "$shard_index/$shard_count)";
  if (r.method == MethodAsked::dfs) throw UsageError(why + "; leave out $method dfs");
  if (!f.dfs_only.empty())
    throw UsageError(f.dfs_only.front() + " needs the enumerator, and " + why);
  if (!f.frontier_fits) {
    throw UsageError("board " + f.board + " is " + std::to_string(f.width) +
                     " wide; the frontier method, the one that runs over MPI ranks, counts "
                     "boards whose shorter side is at most " +
                     std::to_string(kMaxFrontierWidth));
  }
  return {Method::frontier, "started on " + std::to_string(r.ranks->size()) +
                                " MPI ranks: the frontier method runs over them"};
}

// --method dfs or --method frontier, when the board and the options allow it.
MethodChoice as_asked(Method method, const Fit& f) {
  if (method == Method::dfs) {
    if (!f.dfs_fits) {
      throw UsageError("board " + f.board + " has " + squares_text(f.squares) +
                       "; $method dfs counts at most " + std::to_string(kMaxDfsSquares) +
                       " (leave out $method: the frontier method counts it)");
    }
    if (!f.frontier_only.empty()) {
      throw UsageError(f.frontier_only.front() +
                       " applies to the frontier method only (leave out $method dfs)");
    }
    return {Method::dfs, "as asked with $method dfs"};
  }
  if (!f.dfs_only.empty()) {
    throw UsageError(f.dfs_only.front() +
                     " has no meaning for $method frontier (it counts classes of partial "
                     "paths, not prefixes; use $method dfs)");
  }
  if (!f.frontier_fits) {
    throw UsageError("board " + f.board + " is " + std::to_string(f.width) +
                     " wide; the frontier method counts boards whose shorter side is at "
                     "most " +
                     std::to_string(kMaxFrontierWidth) +
                     " (leave out $method: the enumerator counts it)");
  }
  return {Method::frontier, "as asked with $method frontier"};
}

// --method auto where an option only one method takes decides; nothing where none does.
std::optional<MethodChoice> by_options(const CountRequest& r, const Fit& f) {
  // A sharded open all-starts job that the frontier method would count whole: its shards are
  // units of end pairs (the enumerator's shards of such a board would not finish either).
  const bool open_all = !r.closed.value_or(false) && r.all_starts.value_or(false);
  if (f.dfs_only == std::vector<std::string>{"$shard_count"} && open_all && f.frontier_fits &&
      f.squares >= kFrontierOpenSquares && r.prefix.size() <= 1) {
    return MethodChoice{Method::frontier, "open, all starts from " +
                                              squares_text(kFrontierOpenSquares) +
                                              " on, in shards of units of end pairs"};
  }
  if (!f.dfs_only.empty()) {
    if (!f.dfs_fits) {
      throw UsageError(f.dfs_only.front() + " needs the enumerator, which counts at most " +
                       std::to_string(kMaxDfsSquares) + " squares; " + f.board + " has " +
                       squares_text(f.squares));
    }
    return MethodChoice{Method::dfs, f.dfs_only.front() + " needs the enumerator"};
  }
  if (!f.frontier_only.empty()) {
    if (!f.frontier_fits) {
      throw UsageError(f.frontier_only.front() +
                       " needs the frontier method, which counts boards " +
                       "whose shorter side is at most " + std::to_string(kMaxFrontierWidth));
    }
    return MethodChoice{Method::frontier, f.frontier_only.front() + " needs the frontier method"};
  }
  return std::nullopt;
}

}  // namespace

MethodChoice choose_method(const CountRequest& r) {
  const Fit f = fit_of(r);
  if (!f.dfs_fits && !f.frontier_fits) {
    throw UsageError("board " + f.board + " is too big to count: the enumerator counts at most " +
                     std::to_string(kMaxDfsSquares) +
                     " squares and the frontier method boards whose shorter side is at most " +
                     std::to_string(kMaxFrontierWidth));
  }
  if (!f.dfs_only.empty() && !f.frontier_only.empty()) {
    throw UsageError(f.dfs_only.front() + " needs the enumerator ($method dfs) and " +
                     f.frontier_only.front() +
                     " the frontier method ($method frontier); give the options of one");
  }
  if (several_ranks(r.ranks) != nullptr) return over_ranks(r, f);
  if (r.method == MethodAsked::dfs) return as_asked(Method::dfs, f);
  if (r.method == MethodAsked::frontier) return as_asked(Method::frontier, f);
  if (auto decided = by_options(r, f)) return *decided;
  // The measured rule (results/bench/method.md).
  if (!f.dfs_fits) return {Method::frontier, "past 64 squares only the frontier method counts"};
  if (!f.frontier_fits) return {Method::dfs, "too wide for the frontier method"};
  const bool closed = r.closed.value_or(false);
  const bool all = r.all_starts.value_or(false);
  const int from = !closed ? kFrontierOpenSquares
                   : all   ? kFrontierClosedAllStartsSquares
                           : kFrontierClosedSquares;
  const std::string job = closed ? (all ? "closed, all starts" : "closed, one start")
                                 : (all ? "open, all starts" : "open, one start");
  if (f.squares >= from) {
    return {Method::frontier, "faster for " + job + " from " + squares_text(from) + " on"};
  }
  return {Method::dfs, "faster for " + job + " below " + squares_text(from)};
}

}  // namespace knightstour
