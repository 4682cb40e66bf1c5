#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// A picture of one tour: the board (rank 1 at the bottom, files and ranks labelled), the move
// lines in visit order, every square numbered with its move number when the board is small
// enough to read them (at most 40 squares on a side), the start marked by a green ring and the
// last square by a red one; a closing line is dashed when the tour is closed. `tour` holds
// every square once (square = row * cols + col). Meant for boards of up to kMaxPictureSquares
// squares (callers refuse larger ones). Both formats draw the same picture.
inline constexpr std::int64_t kMaxPictureSquares = 1'000'000;

// As an SVG document.
std::string tour_svg(BoardShape shape, const std::vector<std::uint32_t>& tour);
// As the bytes of a PNG image (drawn by cairo). IoError if it cannot be made.
std::string tour_png(BoardShape shape, const std::vector<std::uint32_t>& tour);

}  // namespace knightstour
