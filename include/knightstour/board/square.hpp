#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// Chess-style file letters: a..z, then aa, ab, ... (bijective base 26) for wide boards.
std::string file_name(int col);

// "a1" for row 0, column 0.
std::string square_name(int row, int col);
std::string square_name(const Board& board, int square);

// Parses "a1" (file letters, rank number) or "r,c" (zero-based, 0,0 = a1) into {row, col}.
// Throws UsageError when malformed or off the board; `what` names the input in the message.
struct RowCol {
  int row;
  int col;
};
RowCol parse_row_col(const BoardShape& shape, std::string_view text, std::string_view what);

// Square index on a board of at most 64 squares.
int parse_square(const Board& board, std::string_view text, std::string_view what = "square");

// A comma-separated list of chess-style names, e.g. "a1,b3,c5".
// "r,c" pairs are not accepted here because the comma separates squares.
std::vector<int> parse_square_list(const Board& board, std::string_view text,
                                   std::string_view what);

std::string path_name(const Board& board, const std::uint8_t* squares, int length);

}  // namespace knightstour
