#include "knightstour/plan/prefix_plan.hpp"

#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

namespace {

// Calls emit(path, length) for every live path of depth+1 squares extending `root`, in
// canonical order. The pruned walk uses exactly the kernel's rules (legal_moves, play).
template <class Emit>
class PrefixWalk {
 public:
  PrefixWalk(const Board& board, SearchMode mode, int depth, Emit& emit)
      : board_(board), mode_(mode), depth_(depth), emit_(emit) {}

  void walk(const std::vector<std::uint8_t>& root) {
    const int length = static_cast<int>(root.size());
    for (int i = 0; i < length; ++i) path_[i] = root[static_cast<std::size_t>(i)];
    if (mode_.algorithm == Algorithm::naive) {
      Bitboard free = board_.all();
      for (auto square : root) free &= ~bit(square);
      naive(free, length - 1);
      return;
    }
    const auto state = make_state(board_, root, mode_.closed);
    if (state) pruned(*state, length - 1);
  }

 private:
  void pruned(const SearchState& s, int depth) {
    if (depth == depth_) {
      emit_(path_, depth + 1);
      return;
    }
    if (s.remaining == 0) return;
    if (s.remaining == 1) {
      if (mode_.closed) return;  // only the return to the start is left
      SearchState last;
      last.head = lowest(s.free);
      path_[depth + 1] = static_cast<std::uint8_t>(last.head);
      pruned(last, depth + 1);
      return;
    }
    const auto* neighbours = board_.neighbour_table();
    const MoveSet m = legal_moves(neighbours, s);
    for_each_square(m.moves, [&](int next) {
      SearchState child;
      play(neighbours, s, next, m.critical, child);
      path_[depth + 1] = static_cast<std::uint8_t>(next);
      pruned(child, depth + 1);
    });
  }

  void naive(Bitboard free, int depth) {
    if (depth == depth_) {
      emit_(path_, depth + 1);
      return;
    }
    for_each_square(board_.neighbours(path_[depth]) & free, [&](int next) {
      path_[depth + 1] = static_cast<std::uint8_t>(next);
      naive(free & ~bit(next), depth + 1);
    });
  }

  const Board& board_;
  SearchMode mode_;
  int depth_;
  Emit& emit_;
  std::uint8_t path_[Board::kMaxSquares] = {};
};

template <class Emit>
void walk_all(const Board& board, const std::vector<std::vector<std::uint8_t>>& roots,
              SearchMode mode, int depth, Emit& emit) {
  PrefixWalk<Emit> walk(board, mode, depth, emit);
  for (const auto& root : roots) {
    if (static_cast<int>(root.size()) > depth + 1) {
      throw UsageError("split depth " + std::to_string(depth) + " is shorter than the prefix (" +
                       std::to_string(root.size() - 1) + " moves)");
    }
    walk.walk(root);
  }
}

}  // namespace

PrefixPlan::PrefixPlan(const Board& board, const std::vector<std::vector<std::uint8_t>>& roots,
                       SearchMode mode, int split_depth)
    : depth_(split_depth) {
  if (split_depth < 0 || split_depth > board.squares() - 1) {
    throw UsageError("split depth " + std::to_string(split_depth) + " is out of range 0-" +
                     std::to_string(board.squares() - 1) + " for the " + board.name() + " board");
  }
  std::size_t count = 0;
  auto emit = [&](const std::uint8_t* path, int length) {
    if (++count > kMaxPrefixes) {
      throw UsageError("split depth " + std::to_string(split_depth) + " gives more than " +
                       with_commas(kMaxPrefixes) +
                       " prefixes, the most a plan holds: choose a smaller --split-depth");
    }
    // A deep plan takes seconds to list: let SIGINT and SIGTERM end it.
    if (count % 65536 == 0 && stop_signal_received())
      throw Interrupted("interrupted by a signal while listing the prefixes; nothing was run");
    squares_.insert(squares_.end(), path, path + length);
  };
  walk_all(board, roots, mode, split_depth, emit);
}

std::vector<std::size_t> prefix_counts(const Board& board,
                                       const std::vector<std::vector<std::uint8_t>>& roots,
                                       SearchMode mode, int max_depth, std::size_t enough) {
  std::size_t min_depth = 0;
  for (const auto& root : roots) min_depth = std::max(min_depth, root.size() - 1);
  std::vector<std::size_t> counts;
  for (int d = static_cast<int>(min_depth); d <= max_depth; ++d) {
    std::size_t n = 0;
    auto emit = [&n](const std::uint8_t*, int) { ++n; };
    walk_all(board, roots, mode, d, emit);
    counts.push_back(n);
    if (n >= enough) break;
  }
  return counts;
}

}  // namespace knightstour
