#include "knightstour/search/tree_estimate.hpp"

#include <algorithm>
#include <cmath>

#include "knightstour/search/search_state.hpp"

namespace knightstour {

double TreeEstimate::nodes_error() const { return std::sqrt(nodes_var); }
double TreeEstimate::tours_error() const { return std::sqrt(tours_var); }

namespace {

Bitboard pick(Bitboard moves, std::mt19937_64& rng) {
  auto k = std::uniform_int_distribution<int>(0, popcount(moves) - 1)(rng);
  while (k-- > 0) moves = without_lowest(moves);
  return moves & (~moves + 1);
}

}  // namespace

TreeEstimate estimate_tree(const Board& board, std::span<const std::uint8_t> prefix,
                           SearchMode mode, std::uint64_t walks, std::mt19937_64& rng) {
  TreeEstimate e;
  double sum_n = 0, sum_n2 = 0, sum_t = 0, sum_t2 = 0;
  const auto* nb = board.neighbour_table();
  const int start = prefix[0];
  if (mode.algorithm == Algorithm::naive) {
    Bitboard base = board.all();
    for (auto s : prefix) base &= ~bit(s);
    for (std::uint64_t w = 0; w < walks; ++w) {
      Bitboard free = base;
      int head = prefix.back();
      double weight = 1, nodes = 0, tours = 0;
      while (true) {
        nodes += weight;
        if (free == 0) {
          if (!mode.closed || board.adjacent(head, start)) tours = weight;
          break;
        }
        const Bitboard moves = nb[head] & free;
        if (moves == 0) break;
        weight *= popcount(moves);
        head = lowest(pick(moves, rng));
        free &= ~bit(head);
      }
      sum_n += nodes, sum_n2 += nodes * nodes, sum_t += tours, sum_t2 += tours * tours;
    }
  } else if (const auto root = make_state(board, prefix, mode.closed)) {
    for (std::uint64_t w = 0; w < walks; ++w) {
      SearchState s = *root;
      double weight = 1, nodes = 0, tours = 0;
      while (true) {
        nodes += weight;
        if (s.remaining <= 1) {
          tours = weight;
          break;
        }
        const MoveSet m = legal_moves(nb, s);
        const int k = popcount(m.moves);
        if (k == 0) break;
        if (s.remaining == 2) {  // the kernel counts these leaves without recursing
          nodes += weight * k;
          tours = weight * k;
          break;
        }
        weight *= k;
        SearchState child;
        play(nb, s, lowest(pick(m.moves, rng)), m.critical, child);
        s = child;
      }
      sum_n += nodes, sum_n2 += nodes * nodes, sum_t += tours, sum_t2 += tours * tours;
    }
  }
  if (walks > 0) {
    const auto n = static_cast<double>(walks);
    e.nodes = sum_n / n;
    e.tours = sum_t / n;
    if (walks > 1) {
      e.nodes_var = std::max(0.0, sum_n2 / n - e.nodes * e.nodes) / (n - 1);
      e.tours_var = std::max(0.0, sum_t2 / n - e.tours * e.tours) / (n - 1);
    }
    e.walks = walks;
  }
  return e;
}

}  // namespace knightstour
