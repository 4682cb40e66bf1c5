#pragma once

#include <cstdint>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {

// The board's symmetries (8 on a square board, 4 on a rectangle; the identity first), each
// as the image of every square: maps[g][s]. Knight moves map to knight moves, so a symmetry
// maps the tours from s onto those from maps[g][s].
std::vector<std::vector<std::int64_t>> board_symmetry_maps(BoardShape shape);

// One pinned sweep per class of equivalent start squares: the class's squares and the
// representative swept. Squares that cannot start an open tour (minority colour on an odd
// board) are left out.
struct StartClass {
  std::int64_t representative;
  std::vector<std::int64_t> squares;
};
std::vector<StartClass> start_classes(BoardShape shape);

// The sweep orientation in which `square` comes earliest (a pinned end is cheapest early).
Orientation best_orientation_for(BoardShape shape, std::int64_t square);
// For two pinned ends: the orientation whose later pin comes earliest (then its earlier one).
Orientation best_orientation_for(BoardShape shape, std::int64_t a, std::int64_t b);

}  // namespace knightstour
