#include <cairo.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "io/tour_canvas.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/io/tour_picture.hpp"

namespace knightstour {

namespace {

using io_detail::Colour;
using io_detail::Point;

// Shapes drawn by cairo onto an image surface (antialiased, as the SVG renders).
class CairoCanvas final : public io_detail::Canvas {
 public:
  explicit CairoCanvas(cairo_t* cr) : cr_(cr) {
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
  }
  void rect(double x, double y, double w, double h, Colour fill) override {
    colour(fill);
    cairo_rectangle(cr_, x, y, w, h);
    cairo_fill(cr_);
  }
  void polyline(const std::vector<Point>& points, Colour stroke, double width) override {
    if (points.empty()) return;
    cairo_move_to(cr_, points.front().x, points.front().y);
    for (const Point& p : points) cairo_line_to(cr_, p.x, p.y);
    colour(stroke);
    cairo_set_line_width(cr_, width);
    cairo_stroke(cr_);
  }
  void dashed_line(Point a, Point b, Colour stroke, double width, double dash) override {
    cairo_set_dash(cr_, &dash, 1, 0);
    cairo_move_to(cr_, a.x, a.y);
    cairo_line_to(cr_, b.x, b.y);
    colour(stroke);
    cairo_set_line_width(cr_, width);
    cairo_stroke(cr_);
    cairo_set_dash(cr_, nullptr, 0, 0);
  }
  void circle(Point c, double radius, Colour fill, double fill_opacity, Colour stroke,
              double width) override {
    cairo_new_path(cr_);
    cairo_arc(cr_, c.x, c.y, radius, 0, 2 * std::numbers::pi);
    cairo_set_source_rgba(cr_, fill.r, fill.g, fill.b, fill_opacity);
    if (width <= 0) {
      cairo_fill(cr_);
      return;
    }
    cairo_fill_preserve(cr_);
    colour(stroke);
    cairo_set_line_width(cr_, width);
    cairo_stroke(cr_);
  }
  void text(Point at, double size, const std::string& s) override {
    cairo_set_font_size(cr_, size);
    cairo_text_extents_t e{};
    cairo_text_extents(cr_, s.c_str(), &e);
    colour(io_detail::kBlack);
    cairo_move_to(cr_, at.x - (e.x_bearing + e.width / 2), at.y);
    cairo_show_text(cr_, s.c_str());
  }

 private:
  void colour(Colour c) { cairo_set_source_rgb(cr_, c.r, c.g, c.b); }
  cairo_t* cr_;
};

cairo_status_t append(void* out, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string tour_png(BoardShape shape, const std::vector<std::uint32_t>& tour) {
  const io_detail::Layout l(shape);
  const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(std::lround(l.width)),
                                 static_cast<int>(std::lround(l.height))),
      &cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    throw IoError("cannot make a " + shape.name() +
                  " picture: " + cairo_status_to_string(cairo_surface_status(surface.get())));
  }
  {
    const std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()),
                                                                &cairo_destroy);
    CairoCanvas canvas(cr.get());
    io_detail::draw_tour_picture(l, tour, canvas);
  }
  std::string png;
  const cairo_status_t written = cairo_surface_write_to_png_stream(surface.get(), append, &png);
  if (written != CAIRO_STATUS_SUCCESS) {
    throw IoError(std::string("cannot encode the picture as PNG: ") +
                  cairo_status_to_string(written));
  }
  return png;
}

}  // namespace knightstour
