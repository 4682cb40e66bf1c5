#pragma once

// The picture of a tour, drawn once onto a Canvas: the SVG writer and the PNG writer are two
// canvases, so that both draw the same picture by the same layout.

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour::io_detail {

// An RGB colour, "#rrggbb" where SVG wants text.
struct Colour {
  const char* hex;
  double r, g, b;
};
inline constexpr Colour kDarkSquare{"#c9b48f", 0xc9 / 255.0, 0xb4 / 255.0, 0x8f / 255.0};
inline constexpr Colour kLightSquare{"#f1e6cf", 0xf1 / 255.0, 0xe6 / 255.0, 0xcf / 255.0};
inline constexpr Colour kPath{"#1f4e9c", 0x1f / 255.0, 0x4e / 255.0, 0x9c / 255.0};
inline constexpr Colour kStart{"#1a9641", 0x1a / 255.0, 0x96 / 255.0, 0x41 / 255.0};
inline constexpr Colour kEnd{"#d7191c", 0xd7 / 255.0, 0x19 / 255.0, 0x1c / 255.0};
inline constexpr Colour kWhite{"white", 1, 1, 1};
inline constexpr Colour kBlack{"black", 0, 0, 0};

struct Point {
  double x, y;
};

// What a picture is made of, in pixels from the top left.
class Canvas {
 public:
  virtual ~Canvas() = default;
  virtual void rect(double x, double y, double w, double h, Colour fill) = 0;
  virtual void polyline(const std::vector<Point>& points, Colour stroke, double width) = 0;
  virtual void dashed_line(Point a, Point b, Colour stroke, double width, double dash) = 0;
  // A disc filled with `fill` (at `fill_opacity`), ringed with `stroke` when width > 0.
  virtual void circle(Point c, double radius, Colour fill, double fill_opacity, Colour stroke,
                      double width) = 0;
  // Text centred on x, its baseline at y.
  virtual void text(Point at, double size, const std::string& s) = 0;
};

// Where things go: cells shrink on big boards so the picture stays within a few thousand
// pixels; labels and move numbers only up to 40 squares a side.
struct Layout {
  explicit Layout(BoardShape s);
  double cx(std::uint32_t s) const;
  double cy(std::uint32_t s) const;
  bool labelled() const { return longest <= 40; }

  BoardShape shape;
  int longest;
  double cell;
  double margin;
  double width;
  double height;
};

// The board (squares, files and ranks), then the tour (the path, dashed back to its start
// when it closes, its ends ringed green and red, the move numbers) when there is one.
void draw_tour_picture(const Layout& l, const std::vector<std::uint32_t>& tour, Canvas& canvas);

}  // namespace knightstour::io_detail
