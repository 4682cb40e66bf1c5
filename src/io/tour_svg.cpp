#include <cstdio>

#include "io/tour_canvas.hpp"
#include "knightstour/io/tour_picture.hpp"

namespace knightstour {

namespace {

using io_detail::Colour;
using io_detail::Point;

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

// Shapes as SVG elements.
class SvgCanvas final : public io_detail::Canvas {
 public:
  explicit SvgCanvas(std::string& svg) : svg_(svg) {}
  void rect(double x, double y, double w, double h, Colour fill) override {
    svg_ += "<rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(w) +
            "\" height=\"" + number(h) + "\" fill=\"" + fill.hex + "\"/>\n";
  }
  void polyline(const std::vector<Point>& points, Colour stroke, double width) override {
    svg_ += "<polyline fill=\"none\" stroke=\"" + std::string(stroke.hex) + "\" stroke-width=\"" +
            number(width) + "\" stroke-linejoin=\"round\" points=\"";
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (i) svg_ += ' ';
      svg_ += number(points[i].x) + "," + number(points[i].y);
    }
    svg_ += "\"/>\n";
  }
  void dashed_line(Point a, Point b, Colour stroke, double width, double dash) override {
    svg_ += "<line x1=\"" + number(a.x) + "\" y1=\"" + number(a.y) + "\" x2=\"" + number(b.x) +
            "\" y2=\"" + number(b.y) + "\" stroke=\"" + stroke.hex + "\" stroke-width=\"" +
            number(width) + "\" stroke-dasharray=\"" + number(dash) + "\"/>\n";
  }
  void circle(Point c, double radius, Colour fill, double fill_opacity, Colour stroke,
              double width) override {
    svg_ += "<circle cx=\"" + number(c.x) + "\" cy=\"" + number(c.y) + "\" r=\"" + number(radius) +
            "\" fill=\"" + fill.hex + "\"";
    if (fill_opacity < 1) svg_ += " fill-opacity=\"" + number(fill_opacity) + "\"";
    if (width > 0) {
      svg_ += " stroke=\"" + std::string(stroke.hex) + "\" stroke-width=\"" + number(width) + "\"";
    }
    svg_ += "/>\n";
  }
  void text(Point at, double size, const std::string& s) override {
    svg_ += "<text x=\"" + number(at.x) + "\" y=\"" + number(at.y) + "\" font-size=\"" +
            number(size) + "\" text-anchor=\"middle\">" + s + "</text>\n";
  }

 private:
  std::string& svg_;
};

}  // namespace

std::string tour_svg(BoardShape shape, const std::vector<std::uint32_t>& tour) {
  const io_detail::Layout l(shape);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(l.width) +
                    "\" height=\"" + number(l.height) + "\" viewBox=\"0 0 " + number(l.width) +
                    " " + number(l.height) + "\" font-family=\"sans-serif\">\n";
  svg += "<title>knight's tour on " + shape.name() + "</title>\n";
  SvgCanvas canvas(svg);
  io_detail::draw_tour_picture(l, tour, canvas);
  return svg + "</svg>\n";
}

}  // namespace knightstour
