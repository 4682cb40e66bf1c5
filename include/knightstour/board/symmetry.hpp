#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// A symmetry of the board (a reflection or rotation) as a permutation of square indices.
// Knight moves map to knight moves, so tours map to tours and pruning is unaffected.
struct Symmetry {
  std::string name;
  std::array<std::uint8_t, Board::kMaxSquares> image{};

  int operator()(int square) const { return image[static_cast<unsigned>(square)]; }
  void apply(std::span<const std::uint8_t> in, std::uint8_t* out) const {
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = image[in[i]];
  }
};

// All symmetries of the board, identity first: 8 for a square board, 4 for a rectangle.
std::vector<Symmetry> board_symmetries(const Board& board);

// The board's symmetries as distinct permutations of its squares, identity first: as
// board_symmetries() except on boards one square wide, where some of the maps coincide
// (on 1x1 all are the identity). Counting classes by Burnside's lemma needs these.
std::vector<Symmetry> distinct_symmetries(const Board& board);

// The symmetries that map `path` onto itself square by square (e.g. the diagonal mirror
// for a path that stays on the diagonal, such as the start a1 alone).
std::vector<Symmetry> path_stabilizer(const Board& board, std::span<const std::uint8_t> path);

}  // namespace knightstour
