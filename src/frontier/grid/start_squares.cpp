#include "frontier/grid/start_squares.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace knightstour {

std::vector<std::vector<std::int64_t>> board_symmetry_maps(BoardShape shape) {
  const int R = shape.rows, C = shape.cols;
  // (r, c) -> its image: the identity, the two mirrors, the half turn; on a square board the
  // same four after the diagonal mirror.
  std::vector<std::pair<bool, bool>> flips = {
      {false, false}, {true, false}, {false, true}, {true, true}};
  std::vector<std::vector<std::int64_t>> maps;
  for (int transpose = 0; transpose < (R == C ? 2 : 1); ++transpose) {
    for (const auto& [flip_r, flip_c] : flips) {
      std::vector<std::int64_t> image(static_cast<std::size_t>(shape.squares()));
      for (int r = 0; r < R; ++r) {
        for (int c = 0; c < C; ++c) {
          int rr = flip_r ? R - 1 - r : r, cc = flip_c ? C - 1 - c : c;
          if (transpose == 1) std::swap(rr, cc);
          image[static_cast<std::size_t>(std::int64_t{r} * C + c)] = std::int64_t{rr} * C + cc;
        }
      }
      maps.push_back(std::move(image));
    }
  }
  return maps;
}

namespace {

// The distinct images of square s, ascending.
std::vector<std::int64_t> images(const std::vector<std::vector<std::int64_t>>& maps,
                                 std::int64_t s) {
  std::vector<std::int64_t> out;
  for (const auto& m : maps) out.push_back(m[static_cast<std::size_t>(s)]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<StartClass> start_classes(BoardShape shape) {
  const bool odd = shape.squares() % 2 == 1;
  const auto maps = board_symmetry_maps(shape);
  std::map<std::int64_t, StartClass> by_rep;
  for (int r = 0; r < shape.rows; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      if (odd && (r + c) % 2 == 1) continue;  // the minority colour: no open tour ends there
      const auto orbit = images(maps, std::int64_t{r} * shape.cols + c);
      auto& cls = by_rep[orbit.front()];
      cls.representative = orbit.front();
      cls.squares.push_back(std::int64_t{r} * shape.cols + c);
    }
  }
  std::vector<StartClass> out;
  for (auto& [rep, cls] : by_rep) out.push_back(std::move(cls));
  return out;
}

Orientation best_orientation_for(BoardShape shape, std::int64_t a, std::int64_t b) {
  Orientation best{};
  std::pair<int, int> best_key{-1, -1};
  for (const auto& o : sweep_orientations(shape)) {
    const Sweep s(shape, o);
    const int va = s.vertex(a), vb = s.vertex(b);
    const std::pair<int, int> key{std::max(va, vb), std::min(va, vb)};
    if (best_key.first < 0 || key < best_key) {
      best_key = key;
      best = o;
    }
  }
  return best;
}

Orientation best_orientation_for(BoardShape shape, std::int64_t square) {
  return best_orientation_for(shape, square, square);
}

}  // namespace knightstour
