#include "knightstour/board/board.hpp"

#include <charconv>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/knight_geometry.hpp"

namespace knightstour {

namespace {

// Parses a whole decimal number in [1, kMaxSide]; anything else is a usage error.
int parse_side(std::string_view text, std::string_view whole) {
  int value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    throw UsageError("board '" + std::string(whole) + "' is too large: each side must be at most " +
                     std::to_string(kMaxSide));
  }
  if (text.empty() || ec != std::errc{} || ptr != end) {
    throw UsageError("malformed board '" + std::string(whole) +
                     "': expected ROWSxCOLS such as 6x6 or 3x4, or one side such as 6");
  }
  if (value < 0) {
    throw UsageError("board '" + std::string(whole) + "' has a negative side");
  }
  if (value < 1) {
    throw UsageError("board '" + std::string(whole) + "' has a side of zero squares");
  }
  if (value > kMaxSide) {
    throw UsageError("board '" + std::string(whole) + "' is too large: each side must be at most " +
                     std::to_string(kMaxSide));
  }
  return value;
}

}  // namespace

std::string BoardShape::name() const { return std::to_string(rows) + "x" + std::to_string(cols); }

BoardShape parse_board_shape(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) {
    const int side = parse_side(text, text);
    return {side, side};
  }
  return {parse_side(text.substr(0, x), text), parse_side(text.substr(x + 1), text)};
}

Board::Board(BoardShape shape) : shape_(shape), squares_(0) {
  if (shape.rows < 1 || shape.cols < 1) {
    throw UsageError("board " + shape.name() + " has a side of zero squares");
  }
  if (shape.squares() > kMaxSquares) {
    throw UsageError("board " + shape.name() + " has " + std::to_string(shape.squares()) +
                     " squares; counting and enumeration support at most 64");
  }
  squares_ = static_cast<int>(shape.squares());
  for (int r = 0; r < shape.rows; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      const int s = index(r, c);
      all_ |= bit(s);
      if (((r + c) & 1) == 0) colour0_ |= bit(s);
      for (const KnightStep step : kKnightSteps) {
        const int rr = r + step.dr;
        const int cc = c + step.dc;
        if (rr >= 0 && rr < shape.rows && cc >= 0 && cc < shape.cols) {
          neighbours_[static_cast<unsigned>(s)] |= bit(index(rr, cc));
        }
      }
    }
  }
}

Board parse_board(std::string_view text) { return Board(parse_board_shape(text)); }

}  // namespace knightstour
