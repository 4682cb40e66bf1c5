#include "frontier/jobs/count_bound.hpp"

#include <cmath>
#include <cstdint>

#include "knightstour/board/knight_geometry.hpp"

namespace knightstour::frontier_detail {

namespace {

// log2 of (d!)^(1/d): a square's share of Bregman's bound.
double share(int d) { return d <= 0 ? 0.0 : std::lgamma(d + 1.0) / std::log(2.0) / d; }

}  // namespace

double count_bits_bound(const BoardShape& shape, bool paths) {
  const KnightGeometry moves(shape);
  const auto squares = static_cast<std::uint32_t>(shape.squares());
  double bits = paths ? share(static_cast<int>(squares)) : 0.0;  // T
  for (std::uint32_t v = 0; v < squares; ++v) {
    std::uint32_t around[8];
    bits += share(moves.neighbours(v, around) + (paths ? 1 : 0));
  }
  bits -= 1;  // undirected: each cycle is two permutations
  bits += paths ? 1 : 1 + std::log2(static_cast<double>(squares));
  return bits + 1;  // the mirror fold
}

}  // namespace knightstour::frontier_detail
