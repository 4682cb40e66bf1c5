#include "knightstour/plan/request.hpp"

#include <algorithm>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"

namespace knightstour {

std::vector<std::vector<std::uint8_t>> Request::roots() const {
  if (!all_starts) return {prefix};
  std::vector<std::vector<std::uint8_t>> out;
  for (int s = 0; s < board.squares(); ++s) out.push_back({static_cast<std::uint8_t>(s)});
  return out;
}

int Request::root_depth() const {
  return all_starts ? 0 : std::max(0, static_cast<int>(prefix.size()) - 1);
}

void validate_path(const Board& board, std::span<const std::uint8_t> path, const char* what) {
  if (path.empty()) throw UsageError(std::string(what) + " is empty");
  Bitboard seen = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const int s = path[i];
    if (s >= board.squares()) throw UsageError(std::string(what) + " leaves the board");
    if (seen & bit(s)) {
      throw UsageError(std::string(what) + " visits " + square_name(board, s) + " twice");
    }
    if (i > 0 && !board.adjacent(path[i - 1], s)) {
      throw UsageError(std::string(what) + ": " + square_name(board, path[i - 1]) + " to " +
                       square_name(board, s) + " is not a knight move");
    }
    seen |= bit(s);
  }
}

}  // namespace knightstour
