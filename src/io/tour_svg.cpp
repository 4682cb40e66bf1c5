#include "knightstour/io/tour_svg.hpp"

#include <algorithm>
#include <cstdio>

#include "knightstour/board/square.hpp"
#include "knightstour/board/tour_check.hpp"

namespace knightstour {

namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

// Where things go: cells shrink on big boards so the picture stays within a few thousand
// pixels; labels and move numbers only up to 40 squares a side.
struct Layout {
  explicit Layout(BoardShape s)
      : shape(s),
        longest(std::max(s.rows, s.cols)),
        cell(std::clamp(1200.0 / longest, 4.0, 48.0)),
        margin(longest <= 40 ? 24 : 4),
        width(margin + s.cols * cell + 4),
        height(s.rows * cell + margin + 4) {}
  double cx(std::uint32_t s) const {
    return margin + (static_cast<double>(s % static_cast<std::uint32_t>(shape.cols)) + 0.5) * cell;
  }
  double cy(std::uint32_t s) const {
    const std::uint32_t rank_index = s / static_cast<std::uint32_t>(shape.cols);
    const auto row = static_cast<double>(rank_index);
    return 2 + (shape.rows - 1 - row + 0.5) * cell;
  }
  bool labelled() const { return longest <= 40; }

  BoardShape shape;
  int longest;
  double cell;
  double margin;
  double width;
  double height;
};

// The squares, and the files and ranks along the edges.
void draw_board(const Layout& l, std::string& svg) {
  const BoardShape shape = l.shape;
  // Past 100 squares a side, squares would be specks: one board-coloured background.
  if (l.longest > 100) {
    svg += "<rect x=\"" + number(l.margin) + "\" y=\"2\" width=\"" + number(shape.cols * l.cell) +
           "\" height=\"" + number(shape.rows * l.cell) + "\" fill=\"#f1e6cf\"/>\n";
  }
  for (int r = 0; r < shape.rows && l.longest <= 100; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      const bool dark = (r + c) % 2 == 0;  // a1 is dark, as on a chess board
      svg += "<rect x=\"" + number(l.margin + c * l.cell) + "\" y=\"" +
             number(2 + (shape.rows - 1 - r) * l.cell) + "\" width=\"" + number(l.cell) +
             "\" height=\"" + number(l.cell) + "\" fill=\"" + (dark ? "#c9b48f" : "#f1e6cf") +
             "\"/>\n";
    }
  }
  if (!l.labelled()) return;
  const double label = std::min(12.0, l.cell * 0.4);
  for (int c = 0; c < shape.cols; ++c) {
    svg += "<text x=\"" + number(l.margin + (c + 0.5) * l.cell) + "\" y=\"" +
           number(2 + shape.rows * l.cell + l.margin * 0.7) + "\" font-size=\"" + number(label) +
           "\" text-anchor=\"middle\">" + file_name(c) + "</text>\n";
  }
  for (int r = 0; r < shape.rows; ++r) {
    svg += "<text x=\"" + number(l.margin * 0.5) + "\" y=\"" +
           number(2 + (shape.rows - 1 - r + 0.5) * l.cell + label * 0.35) + "\" font-size=\"" +
           number(label) + "\" text-anchor=\"middle\">" + std::to_string(r + 1) + "</text>\n";
  }
}

// The path (dashed back to its start when it closes), its two ends ringed green and red,
// and the move numbers.
void draw_tour(const Layout& l, const std::vector<std::uint32_t>& tour, std::string& svg) {
  const double stroke = std::max(0.6, l.cell / 16);
  svg += "<polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"" + number(stroke) +
         "\" stroke-linejoin=\"round\" points=\"";
  for (std::size_t i = 0; i < tour.size(); ++i) {
    if (i) svg += ' ';
    svg += number(l.cx(tour[i])) + "," + number(l.cy(tour[i]));
  }
  svg += "\"/>\n";
  if (tour.size() > 1 && knight_move(l.shape, tour.back(), tour.front())) {
    svg += "<line x1=\"" + number(l.cx(tour.back())) + "\" y1=\"" + number(l.cy(tour.back())) +
           "\" x2=\"" + number(l.cx(tour.front())) + "\" y2=\"" + number(l.cy(tour.front())) +
           "\" stroke=\"#1f4e9c\" stroke-width=\"" + number(stroke) + "\" stroke-dasharray=\"" +
           number(stroke * 3) + "\"/>\n";
  }
  const auto ring = [&](std::uint32_t s, const char* colour) {
    svg += "<circle cx=\"" + number(l.cx(s)) + "\" cy=\"" + number(l.cy(s)) + "\" r=\"" +
           number(l.cell * 0.38) + "\" fill=\"white\" stroke=\"" + colour + "\" stroke-width=\"" +
           number(std::max(1.0, l.cell / 10)) + "\"/>\n";
  };
  ring(tour.front(), "#1a9641");
  ring(tour.back(), "#d7191c");
  if (!l.labelled()) return;
  const double size = l.cell * (tour.size() >= 1000 ? 0.26 : tour.size() >= 100 ? 0.32 : 0.38);
  for (std::size_t i = 0; i < tour.size(); ++i) {
    const bool end = i == 0 || i + 1 == tour.size();
    if (!end) {
      svg += "<circle cx=\"" + number(l.cx(tour[i])) + "\" cy=\"" + number(l.cy(tour[i])) +
             "\" r=\"" + number(l.cell * 0.3) + "\" fill=\"white\" fill-opacity=\"0.85\"/>\n";
    }
    svg += "<text x=\"" + number(l.cx(tour[i])) + "\" y=\"" + number(l.cy(tour[i]) + size * 0.35) +
           "\" font-size=\"" + number(size) + "\" text-anchor=\"middle\">" + std::to_string(i + 1) +
           "</text>\n";
  }
}

}  // namespace

std::string tour_svg(BoardShape shape, const std::vector<std::uint32_t>& tour) {
  const Layout l(shape);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(l.width) +
                    "\" height=\"" + number(l.height) + "\" viewBox=\"0 0 " + number(l.width) +
                    " " + number(l.height) + "\" font-family=\"sans-serif\">\n";
  svg += "<title>knight's tour on " + shape.name() + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  draw_board(l, svg);
  if (!tour.empty()) draw_tour(l, tour, svg);
  return svg + "</svg>\n";
}

}  // namespace knightstour
