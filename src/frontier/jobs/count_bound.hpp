#pragma once

#include "knightstour/board/board.hpp"

namespace knightstour::frontier_detail {

// An upper bound, in bits, on the tours a count of `shape` over all starts gives, and so on
// any count a sweep of it holds in a class that still has a way to end: such a class's count
// times one of its ways to end is at most the board's count.
//
// Why it bounds: a directed Hamiltonian cycle of the knight graph is a permutation of its
// squares that moves each to a neighbour, so there are at most perm(A) of them, A the
// adjacency matrix, and perm(A) <= prod over squares of (d!)^(1/d), d the square's degree
// (Bregman's theorem, Minc's conjecture). Undirected cycles are half of them. Open tours
// (`paths`) are the Hamiltonian cycles of the graph with one more vertex T next to every
// square, as the sweep counts them: degrees d + 1, and T's is the number of squares. Then a
// count over all starts multiplies by 2 x squares (closed) or 2 (open), and a class folded
// with its mirror image sums two: one bit more.
double count_bits_bound(const BoardShape& shape, bool paths);

}  // namespace knightstour::frontier_detail
