#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "knightstour/board/board.hpp"

namespace knightstour {

// What mathematics says about whether a tour exists, without searching. Returns the reason
// when no tour can exist; nothing when the theorems allow one (it may still not exist from
// that start on a small board: the search decides those).
//
// Closed tours (Schwenk 1991): an m x n board, m <= n, has one unless m and n are both odd,
// m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8.
// Open tours (Conrad et al. 1994; Cull & De Curtins 1978): an m x n board, m <= n, has one
// when m = n = 1, m = 3 and n = 4 or n >= 7, m = 4 and n >= 5, or m >= 5; never otherwise.
// From a start square: the squares of a tour alternate colours, so on a board with an odd
// number of squares a tour starts (and ends) on the majority colour. On a 4 x n board the
// squares of the two outer lines only neighbour the two inner lines, so an open tour
// alternates outer and inner squares except for one inner-to-inner move; both ends are
// outer squares, and no open tour starts on an inner line.
std::optional<std::string> no_tour_reason(const BoardShape& shape,
                                          std::optional<std::int64_t> start, bool closed);

}  // namespace knightstour
