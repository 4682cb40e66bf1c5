// Board specs, squares and prefix lists, the text a user types: any input is either parsed
// or refused with UsageError/FormatError, never a crash, a hang or another exception.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/board/square.hpp"

using namespace knightstour;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)parse_board_shape(text);
  } catch (const UsageError&) {
  }
  try {
    const Board board = parse_board(text.substr(0, text.find(' ')));
    try {
      (void)parse_row_col(board.shape(), text.substr(text.find(' ') + 1), "square");
    } catch (const UsageError&) {
    }
  } catch (const UsageError&) {
  }
  try {
    (void)parse_row_col(BoardShape{8, 8}, text, "square");
  } catch (const UsageError&) {
  }
  try {
    const Board board(8, 8);
    const auto squares = parse_square_list(board, text, "prefix");
    std::vector<std::uint8_t> path(squares.begin(), squares.end());
    (void)path_name(board, path.data(), static_cast<int>(path.size()));
  } catch (const UsageError&) {
  }
  return 0;
}
