#include "knightstour/board/symmetry.hpp"

#include <algorithm>

namespace knightstour {

std::vector<Symmetry> board_symmetries(const Board& board) {
  const int rows = board.rows();
  const int cols = board.cols();
  struct Map {
    const char* name;
    bool transpose;  // only for square boards
    bool flip_rows;
    bool flip_cols;
  };
  std::vector<Map> maps = {{"identity", false, false, false},
                           {"flip ranks", false, true, false},
                           {"flip files", false, false, true},
                           {"rotate 180", false, true, true}};
  if (rows == cols) {
    maps.push_back({"main diagonal", true, false, false});
    maps.push_back({"rotate 90", true, true, false});
    maps.push_back({"rotate 270", true, false, true});
    maps.push_back({"anti-diagonal", true, true, true});
  }
  std::vector<Symmetry> out;
  for (const auto& m : maps) {
    Symmetry s;
    s.name = m.name;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        int rr = m.transpose ? c : r;
        int cc = m.transpose ? r : c;
        if (m.flip_rows) rr = rows - 1 - rr;
        if (m.flip_cols) cc = cols - 1 - cc;
        s.image[static_cast<unsigned>(board.index(r, c))] =
            static_cast<std::uint8_t>(board.index(rr, cc));
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<Symmetry> distinct_symmetries(const Board& board) {
  const auto n = static_cast<std::size_t>(board.squares());
  std::vector<Symmetry> out;
  for (auto& s : board_symmetries(board)) {
    const bool seen = std::any_of(out.begin(), out.end(), [&](const Symmetry& t) {
      return std::equal(s.image.begin(), s.image.begin() + static_cast<std::ptrdiff_t>(n),
                        t.image.begin());
    });
    if (!seen) out.push_back(std::move(s));
  }
  return out;
}

std::vector<Symmetry> path_stabilizer(const Board& board, std::span<const std::uint8_t> path) {
  std::vector<Symmetry> out;
  for (auto& s : board_symmetries(board)) {
    bool fixes = true;
    for (auto square : path) fixes = fixes && s(square) == square;
    if (fixes) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace knightstour
