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

}  // namespace

std::string tour_svg(BoardShape shape, const std::vector<std::uint32_t>& tour) {
  // Cells shrink on big boards so the picture stays within a few thousand pixels.
  const int longest = std::max(shape.rows, shape.cols);
  const double cell = std::clamp(1200.0 / longest, 4.0, 48.0);
  const double margin = longest <= 40 ? 24 : 4;
  const double width = margin + shape.cols * cell + 4, height = shape.rows * cell + margin + 4;
  const auto cx = [&](std::uint32_t s) {
    return margin + (static_cast<double>(s % static_cast<std::uint32_t>(shape.cols)) + 0.5) * cell;
  };
  const auto cy = [&](std::uint32_t s) {
    const std::uint32_t rank_index = s / static_cast<std::uint32_t>(shape.cols);
    const auto row = static_cast<double>(rank_index);
    return 2 + (shape.rows - 1 - row + 0.5) * cell;
  };
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width) +
                    "\" height=\"" + number(height) + "\" viewBox=\"0 0 " + number(width) + " " +
                    number(height) + "\" font-family=\"sans-serif\">\n";
  svg += "<title>knight's tour on " + shape.name() + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  // Past 100 squares a side, squares would be specks: one board-coloured background.
  if (longest > 100) {
    svg += "<rect x=\"" + number(margin) + "\" y=\"2\" width=\"" + number(shape.cols * cell) +
           "\" height=\"" + number(shape.rows * cell) + "\" fill=\"#f1e6cf\"/>\n";
  }
  for (int r = 0; r < shape.rows && longest <= 100; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      const bool dark = (r + c) % 2 == 0;  // a1 is dark, as on a chess board
      svg += "<rect x=\"" + number(margin + c * cell) + "\" y=\"" +
             number(2 + (shape.rows - 1 - r) * cell) + "\" width=\"" + number(cell) +
             "\" height=\"" + number(cell) + "\" fill=\"" + (dark ? "#c9b48f" : "#f1e6cf") +
             "\"/>\n";
    }
  }
  if (longest <= 40) {
    const double label = std::min(12.0, cell * 0.4);
    for (int c = 0; c < shape.cols; ++c) {
      svg += "<text x=\"" + number(margin + (c + 0.5) * cell) + "\" y=\"" +
             number(2 + shape.rows * cell + margin * 0.7) + "\" font-size=\"" + number(label) +
             "\" text-anchor=\"middle\">" + file_name(c) + "</text>\n";
    }
    for (int r = 0; r < shape.rows; ++r) {
      svg += "<text x=\"" + number(margin * 0.5) + "\" y=\"" +
             number(2 + (shape.rows - 1 - r + 0.5) * cell + label * 0.35) + "\" font-size=\"" +
             number(label) + "\" text-anchor=\"middle\">" + std::to_string(r + 1) + "</text>\n";
    }
  }
  if (tour.empty()) return svg + "</svg>\n";
  const double stroke = std::max(0.6, cell / 16);
  svg += "<polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"" + number(stroke) +
         "\" stroke-linejoin=\"round\" points=\"";
  for (std::size_t i = 0; i < tour.size(); ++i) {
    if (i) svg += ' ';
    svg += number(cx(tour[i])) + "," + number(cy(tour[i]));
  }
  svg += "\"/>\n";
  if (tour.size() > 1 && knight_move(shape, tour.back(), tour.front())) {
    svg += "<line x1=\"" + number(cx(tour.back())) + "\" y1=\"" + number(cy(tour.back())) +
           "\" x2=\"" + number(cx(tour.front())) + "\" y2=\"" + number(cy(tour.front())) +
           "\" stroke=\"#1f4e9c\" stroke-width=\"" + number(stroke) + "\" stroke-dasharray=\"" +
           number(stroke * 3) + "\"/>\n";
  }
  const auto ring = [&](std::uint32_t s, const char* colour) {
    svg += "<circle cx=\"" + number(cx(s)) + "\" cy=\"" + number(cy(s)) + "\" r=\"" +
           number(cell * 0.38) + "\" fill=\"white\" stroke=\"" + colour + "\" stroke-width=\"" +
           number(std::max(1.0, cell / 10)) + "\"/>\n";
  };
  ring(tour.front(), "#1a9641");
  ring(tour.back(), "#d7191c");
  if (longest <= 40) {
    const double size = cell * (tour.size() >= 1000 ? 0.26 : tour.size() >= 100 ? 0.32 : 0.38);
    for (std::size_t i = 0; i < tour.size(); ++i) {
      const bool end = i == 0 || i + 1 == tour.size();
      if (!end) {
        svg += "<circle cx=\"" + number(cx(tour[i])) + "\" cy=\"" + number(cy(tour[i])) +
               "\" r=\"" + number(cell * 0.3) + "\" fill=\"white\" fill-opacity=\"0.85\"/>\n";
      }
      svg += "<text x=\"" + number(cx(tour[i])) + "\" y=\"" + number(cy(tour[i]) + size * 0.35) +
             "\" font-size=\"" + number(size) + "\" text-anchor=\"middle\">" +
             std::to_string(i + 1) + "</text>\n";
    }
  }
  return svg + "</svg>\n";
}

}  // namespace knightstour
