#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/base/progress.hpp"
#include "knightstour/board/board.hpp"

namespace knightstour {

// The words of the output's figures, shared by every report and the CLI.

// " (mod P)" after a residue (count --modulus), so that none reads as a count; "" after a
// count (modulus 0).
std::string residue_mark(std::uint64_t modulus);

// An estimate: with commas below a million ("12,345"), else three significant digits
// ("1.56e+10").
std::string estimate_figure(double value);

// One value per square laid out like the board: rank 1 at the bottom, files left to right,
// with rank numbers on the left and file letters underneath.
std::string board_grid(const Board& board, const std::vector<std::uint64_t>& values);
// The same for values already written out, one per square (r * cols + c), any board size.
std::string board_grid(const BoardShape& shape, const std::vector<std::string>& cells);
// "start a1, directed open tours", "all starts, directed closed tours", "prefix a1,b3, ...";
// all starts with total_only (count --total-only) says that only the total is counted.
std::string what_is_counted(const BoardShape& shape, bool all_starts,
                            const std::vector<std::int64_t>& prefix, bool closed,
                            bool total_only = false);

// A tour (squares in visit order) as the grid of its move numbers, 1 at the start.
std::string tour_grid(const BoardShape& shape, const std::vector<std::uint32_t>& tour);

}  // namespace knightstour
