#include "knightstour/count/symmetry_classes.hpp"

#include <stdexcept>
#include <string>

#include "knightstour/board/symmetry.hpp"

namespace knightstour {

namespace {

std::uint64_t divide(std::uint64_t n, std::uint64_t by, const char* what) {
  if (by == 0 || n % by != 0) {
    throw std::logic_error(std::string("internal error: ") + what + " (" + std::to_string(n) +
                           ") is not a multiple of " + std::to_string(by));
  }
  return n / by;
}

}  // namespace

SymmetryClasses symmetry_classes(const Board& board, std::optional<int> start,
                                 const TourSymmetryCounts& found, bool count_cycles) {
  const auto group = distinct_symmetries(board);
  SymmetryClasses out;
  out.board_symmetries = static_cast<int>(group.size());
  out.self_reverse = found.self_reverse;
  const auto g = static_cast<std::uint64_t>(group.size());
  const auto n = static_cast<std::uint64_t>(board.squares());
  if (!start) {
    out.symmetries = out.board_symmetries;
    out.tours = divide(found.tours, g, "tours over all starts");
    out.tours_with_reversal =
        divide(found.tours + found.self_reverse, 2 * g, "tours plus self-reverse tours");
    if (count_cycles) out.cycles = divide(found.cycle_stabilizers, 2 * n * g, "cycle stabilizers");
    return out;
  }
  const std::uint8_t s = static_cast<std::uint8_t>(*start);
  std::uint64_t h = 0;
  for (const auto& sym : group) h += sym(s) == s ? 1 : 0;
  out.symmetries = static_cast<int>(h);
  out.tours = divide(found.tours, h, "tours from the start");
  // Tours whose last square is an image of the start: their class also holds reversed ones.
  std::vector<bool> image_of_start(static_cast<std::size_t>(board.squares()), false);
  for (const auto& sym : group) image_of_start[static_cast<std::size_t>(sym(s))] = true;
  std::uint64_t ending_on_image = 0;
  for (std::size_t e = 0; e < found.tours_by_end.size(); ++e) {
    if (image_of_start[e]) ending_on_image += found.tours_by_end[e];
  }
  if (found.self_reverse > ending_on_image) {
    throw std::logic_error(
        "internal error: more self-reverse tours than tours ending on an "
        "image of the start");
  }
  const std::uint64_t paired =
      divide(ending_on_image - found.self_reverse, 2, "tours in reversed pairs");
  out.tours_with_reversal = divide(found.tours - ending_on_image + found.self_reverse + paired, h,
                                   "tour classes with reversal");
  if (count_cycles) out.cycles = divide(found.cycle_stabilizers, 2 * g, "cycle stabilizers");
  return out;
}

}  // namespace knightstour
