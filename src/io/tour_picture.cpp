#include <algorithm>

#include "io/tour_canvas.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/board/tour_check.hpp"

namespace knightstour::io_detail {

Layout::Layout(BoardShape s)
    : shape(s),
      longest(std::max(s.rows, s.cols)),
      cell(std::clamp(1200.0 / longest, 4.0, 48.0)),
      margin(longest <= 40 ? 24 : 4),
      width(margin + s.cols * cell + 4),
      height(s.rows * cell + margin + 4) {}

double Layout::cx(std::uint32_t s) const {
  return margin + (static_cast<double>(s % static_cast<std::uint32_t>(shape.cols)) + 0.5) * cell;
}

double Layout::cy(std::uint32_t s) const {
  const std::uint32_t rank_index = s / static_cast<std::uint32_t>(shape.cols);
  const auto row = static_cast<double>(rank_index);
  return 2 + (shape.rows - 1 - row + 0.5) * cell;
}

namespace {

// The squares, and the files and ranks along the edges.
void draw_board(const Layout& l, Canvas& canvas) {
  const BoardShape shape = l.shape;
  // Past 100 squares a side, squares would be specks: one board-coloured background.
  if (l.longest > 100) {
    canvas.rect(l.margin, 2, shape.cols * l.cell, shape.rows * l.cell, kLightSquare);
  }
  for (int r = 0; r < shape.rows && l.longest <= 100; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      const bool dark = (r + c) % 2 == 0;  // a1 is dark, as on a chess board
      canvas.rect(l.margin + c * l.cell, 2 + (shape.rows - 1 - r) * l.cell, l.cell, l.cell,
                  dark ? kDarkSquare : kLightSquare);
    }
  }
  if (!l.labelled()) return;
  const double label = std::min(12.0, l.cell * 0.4);
  for (int c = 0; c < shape.cols; ++c) {
    canvas.text({l.margin + (c + 0.5) * l.cell, 2 + shape.rows * l.cell + l.margin * 0.7}, label,
                file_name(c));
  }
  for (int r = 0; r < shape.rows; ++r) {
    canvas.text({l.margin * 0.5, 2 + (shape.rows - 1 - r + 0.5) * l.cell + label * 0.35}, label,
                std::to_string(r + 1));
  }
}

void draw_tour(const Layout& l, const std::vector<std::uint32_t>& tour, Canvas& canvas) {
  const double stroke = std::max(0.6, l.cell / 16);
  std::vector<Point> path;
  path.reserve(tour.size());
  for (const std::uint32_t s : tour) path.push_back({l.cx(s), l.cy(s)});
  canvas.polyline(path, kPath, stroke);
  if (tour.size() > 1 && knight_move(l.shape, tour.back(), tour.front())) {
    canvas.dashed_line(path.back(), path.front(), kPath, stroke, stroke * 3);
  }
  const double ring = std::max(1.0, l.cell / 10);
  canvas.circle(path.front(), l.cell * 0.38, kWhite, 1, kStart, ring);
  canvas.circle(path.back(), l.cell * 0.38, kWhite, 1, kEnd, ring);
  if (!l.labelled()) return;
  const double size = l.cell * (tour.size() >= 1000 ? 0.26 : tour.size() >= 100 ? 0.32 : 0.38);
  for (std::size_t i = 0; i < tour.size(); ++i) {
    const bool end = i == 0 || i + 1 == tour.size();
    if (!end) canvas.circle(path[i], l.cell * 0.3, kWhite, 0.85, kWhite, 0);
    canvas.text({path[i].x, path[i].y + size * 0.35}, size, std::to_string(i + 1));
  }
}

}  // namespace

void draw_tour_picture(const Layout& l, const std::vector<std::uint32_t>& tour, Canvas& canvas) {
  canvas.rect(0, 0, l.width, l.height, kWhite);
  draw_board(l, canvas);
  if (!tour.empty()) draw_tour(l, tour, canvas);
}

}  // namespace knightstour::io_detail
