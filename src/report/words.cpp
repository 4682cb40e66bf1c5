#include "knightstour/report/words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "knightstour/board/square.hpp"

namespace knightstour {

std::string residue_mark(std::uint64_t modulus) {
  return modulus != 0 ? " (mod " + std::to_string(modulus) + ")" : std::string();
}

std::string estimate_figure(double value) {
  if (value < 1e6) return with_commas(static_cast<std::uint64_t>(std::llround(value)));
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

std::string board_grid(const Board& board, const std::vector<std::uint64_t>& values) {
  std::vector<std::string> cells;
  for (auto v : values) cells.push_back(with_commas(v));
  return board_grid(board.shape(), cells);
}

std::string board_grid(const BoardShape& shape, const std::vector<std::string>& cells) {
  std::size_t width = 1;
  for (const auto& v : cells) width = std::max(width, v.size());
  for (int c = 0; c < shape.cols; ++c) width = std::max(width, file_name(c).size());
  const std::size_t label = std::to_string(shape.rows).size();
  auto pad = [](const std::string& s, std::size_t w) {
    return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
  };
  std::string out;
  for (int r = shape.rows - 1; r >= 0; --r) {
    out += pad(std::to_string(r + 1), label) + " |";
    for (int c = 0; c < shape.cols; ++c) {
      out += ' ' + pad(cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(shape.cols) +
                             static_cast<std::size_t>(c)],
                       width);
    }
    out += '\n';
  }
  out += std::string(label + 2, ' ');
  for (int c = 0; c < shape.cols; ++c) out += ' ' + pad(file_name(c), width);
  out += '\n';
  return out;
}

std::string what_is_counted(const BoardShape& shape, bool all_starts,
                            const std::vector<std::int64_t>& prefix, bool closed, bool total_only) {
  const std::string kind = std::string(", directed ") + (closed ? "closed" : "open") + " tours";
  if (all_starts) {
    std::string text = "all starts";
    text += kind;
    if (total_only) text += " (the total only: $total_only)";
    return text;
  }
  auto name = [&](std::int64_t s) {
    return square_name(static_cast<int>(s / shape.cols), static_cast<int>(s % shape.cols));
  };
  if (prefix.size() == 1) return "start " + name(prefix.front()) + kind;
  std::string path;
  for (auto s : prefix) {
    if (!path.empty()) path += ',';
    path += name(s);
  }
  return "prefix " + path + kind;
}

std::string tour_grid(const BoardShape& shape, const std::vector<std::uint32_t>& tour) {
  std::vector<std::string> cells(tour.size());
  for (std::size_t i = 0; i < tour.size(); ++i) cells[tour[i]] = std::to_string(i + 1);
  return board_grid(shape, cells);
}

}  // namespace knightstour
