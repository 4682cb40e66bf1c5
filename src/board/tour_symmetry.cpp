#include "knightstour/board/tour_symmetry.hpp"

#include "knightstour/board/symmetry.hpp"

namespace knightstour {

TourSymmetry::TourSymmetry(const Board& board) : squares_(board.squares()) {
  const auto group = distinct_symmetries(board);
  for (std::size_t i = 1; i < group.size(); ++i) others_.push_back(group[i].image);
}

bool TourSymmetry::reverse_symmetric(const std::uint8_t* path) const {
  const int last = squares_ - 1;
  if (last == 0) return true;  // one square: the identity reads it backwards as itself
  for (const auto& g : others_) {
    if (g[path[0]] != path[last]) continue;
    bool same = true;
    for (int i = 1; i <= last / 2 && same; ++i) same = g[path[i]] == path[last - i];
    if (same) return true;
  }
  return false;
}

int TourSymmetry::cycle_stabilizer(const std::uint8_t* path) const {
  const int n = squares_;
  if (n < 3) return 1;
  std::array<std::uint8_t, Board::kMaxSquares> position{};
  for (int i = 0; i < n; ++i) position[path[i]] = static_cast<std::uint8_t>(i);
  int count = 1;  // the identity
  for (const auto& g : others_) {
    // g maps path[0] to path[j]; the cycle's next square must follow one way or the other.
    const int j = position[g[path[0]]];
    const int ahead = position[g[path[1]]];
    int step = 0;
    if (ahead == (j + 1) % n) {
      step = 1;
    } else if (ahead == (j + n - 1) % n) {
      step = n - 1;
    } else {
      continue;
    }
    bool same = true;
    for (int i = 2, k = (ahead + step) % n; i < n && same; ++i, k = (k + step) % n) {
      same = g[path[i]] == path[k];
    }
    if (same) ++count;
  }
  return count;
}

}  // namespace knightstour
