#include "knightstour/board/square.hpp"

#include <cctype>
#include <charconv>

#include "knightstour/base/errors.hpp"

namespace knightstour {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char ch : s) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  }
  return true;
}

// Parses digits into an int, or returns -1 when the number is too long to be a square.
int parse_small(std::string_view digits) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc{} || ptr != digits.data() + digits.size()) return -1;
  return value;
}

std::string files_range(const BoardShape& shape) {
  return "files a-" + file_name(shape.cols - 1) + ", ranks 1-" + std::to_string(shape.rows);
}

}  // namespace

std::string file_name(int col) {
  std::string name;
  int n = col + 1;
  while (n > 0) {
    --n;
    name.insert(name.begin(), static_cast<char>('a' + n % 26));
    n /= 26;
  }
  return name;
}

std::string square_name(int row, int col) { return file_name(col) + std::to_string(row + 1); }

std::string square_name(const Board& board, int square) {
  return square_name(board.row_of(square), board.col_of(square));
}

RowCol parse_row_col(const BoardShape& shape, std::string_view text, std::string_view what) {
  const std::string quoted = std::string(what) + " '" + std::string(text) + "'";
  const auto comma = text.find(',');
  int row = -1;
  int col = -1;
  if (comma != std::string_view::npos) {
    const auto r = text.substr(0, comma);
    const auto c = text.substr(comma + 1);
    if (!all_digits(r) || !all_digits(c)) {
      throw UsageError("malformed " + quoted + ": expected a name such as a1 or zero-based r,c");
    }
    row = parse_small(r);
    col = parse_small(c);
  } else {
    std::size_t i = 0;
    long long file = 0;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
      file = file * 26 + (std::tolower(static_cast<unsigned char>(text[i])) - 'a' + 1);
      if (file > kMaxSide) file = kMaxSide + 1;
      ++i;
    }
    const auto digits = text.substr(i);
    if (i == 0 || !all_digits(digits)) {
      throw UsageError("malformed " + quoted + ": expected a name such as a1 or zero-based r,c");
    }
    const int rank = parse_small(digits);
    if (rank == 0) throw UsageError(quoted + " is off the board: ranks start at 1");
    col = static_cast<int>(file) - 1;
    row = rank < 0 ? -1 : rank - 1;
  }
  if (row < 0 || col < 0 || row >= shape.rows || col >= shape.cols) {
    throw UsageError(quoted + " is off the " + shape.name() + " board (" + files_range(shape) +
                     ")");
  }
  return {row, col};
}

int parse_square(const Board& board, std::string_view text, std::string_view what) {
  const auto rc = parse_row_col(board.shape(), text, what);
  return board.index(rc.row, rc.col);
}

std::vector<int> parse_square_list(const Board& board, std::string_view text,
                                   std::string_view what) {
  std::vector<int> squares;
  std::size_t pos = 0;
  while (true) {
    const auto comma = text.find(',', pos);
    const auto item = text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
    if (item.empty()) {
      throw UsageError("malformed " + std::string(what) + " '" + std::string(text) +
                       "': expected square names separated by commas, such as a1,b3,c5");
    }
    squares.push_back(parse_square(board, item, std::string(what) + " square"));
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return squares;
}

std::string path_name(const Board& board, const std::uint8_t* squares, int length) {
  std::string out;
  for (int i = 0; i < length; ++i) {
    if (i) out += ',';
    out += square_name(board, squares[i]);
  }
  return out;
}

}  // namespace knightstour
