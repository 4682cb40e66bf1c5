#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "frontier/grid/start_squares.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/frontier/frontier_request.hpp"

namespace knightstour {

namespace {

// Can a tour run from s to t (colours only; see EndPairUnit)?
bool ends_can_hold_a_tour(BoardShape shape, std::int64_t s, std::int64_t t) {
  const auto colour = [&](std::int64_t q) { return (q / shape.cols + q % shape.cols) % 2; };
  if (shape.squares() % 2 == 0) return colour(s) != colour(t);
  return colour(s) == 0 && colour(t) == 0;
}

}  // namespace

std::vector<EndPairUnit> end_pair_units(BoardShape shape) {
  const std::int64_t n = shape.squares();
  if (n > kMaxEndPairSquares) {
    throw UsageError("units by end pairs are for boards of at most " +
                     std::to_string(kMaxEndPairSquares) + " squares (" + shape.name() + " has " +
                     std::to_string(n) + ")");
  }
  const auto maps = board_symmetry_maps(shape);
  std::map<std::pair<std::int64_t, std::int64_t>,
           std::vector<std::pair<std::int64_t, std::int64_t>>>
      orbits;  // least pair -> the orbit
  for (std::int64_t s = 0; s < n; ++s) {
    for (std::int64_t t = 0; t < n; ++t) {
      if (s == t || !ends_can_hold_a_tour(shape, s, t)) continue;
      std::vector<std::pair<std::int64_t, std::int64_t>> orbit;
      for (const auto& g : maps) {
        const auto gs = g[static_cast<std::size_t>(s)], gt = g[static_cast<std::size_t>(t)];
        orbit.emplace_back(gs, gt);
        orbit.emplace_back(gt, gs);
      }
      std::sort(orbit.begin(), orbit.end());
      orbit.erase(std::unique(orbit.begin(), orbit.end()), orbit.end());
      if (orbit.front() == std::pair{s, t}) orbits.emplace(orbit.front(), std::move(orbit));
    }
  }
  std::vector<EndPairUnit> units;
  for (auto& [least, orbit] : orbits) {
    EndPairUnit u;
    u.id = static_cast<int>(units.size());
    u.start = least.first;
    u.end = least.second;
    u.pairs = std::move(orbit);
    units.push_back(std::move(u));
  }
  return units;
}

bool unit_in_shard(int unit, const Shard& shard) {
  return shard.count <= 1 || unit % shard.count == shard.index;
}

int units_in_shard(int units, const Shard& shard) {
  int mine = 0;
  for (int k = 0; k < units; ++k) mine += unit_in_shard(k, shard) ? 1 : 0;
  return mine;
}

std::vector<int> spread_order(int units, const Shard& shard) {
  std::vector<int> mine;
  for (int k = 0; k < units; ++k) {
    if (unit_in_shard(k, shard)) mine.push_back(k);
  }
  int bits = 0;
  while ((std::size_t{1} << bits) < mine.size()) ++bits;
  auto reversed = [bits](std::size_t i) {
    std::size_t r = 0;
    for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1 - b);
    return r;
  };
  std::vector<std::pair<std::size_t, int>> keyed;
  for (std::size_t i = 0; i < mine.size(); ++i) keyed.emplace_back(reversed(i), mine[i]);
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> out;
  out.reserve(keyed.size());
  for (const auto& [key, id] : keyed) out.push_back(id);
  return out;
}

EndPairCounts end_pair_counts(BoardShape shape, const std::vector<EndPairUnit>& units,
                              const std::map<int, BigCount>& by_unit, int shard_index) {
  const auto n = static_cast<std::size_t>(shape.squares());
  const KnightGeometry moves(shape);
  EndPairCounts out;
  out.tours_by_start.assign(n, BigCount{});
  out.closed_by_start.assign(n, BigCount{});
  out.tours_by_start_end.assign(n * n, BigCount{});
  for (const auto& [id, count] : by_unit) {
    if (id < 0 || static_cast<std::size_t>(id) >= units.size()) {
      throw std::logic_error("end pair unit " + std::to_string(id) + " is not in the plan");
    }
    for (const auto& [a, b] : units[static_cast<std::size_t>(id)].pairs) {
      const auto sa = static_cast<std::size_t>(a), sb = static_cast<std::size_t>(b);
      out.tours_by_start_end[sa * n + sb] = count;
      out.tours_by_start[sa] += count;
      out.tours += count;
      if (moves.adjacent(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b))) {
        out.closed_by_start[sa] += count;
        out.closed_tours += count;
      }
    }
  }
  if (by_unit.size() == units.size() && n > 0) out.cycles = out.closed_by_start[0] / 2;
  if (n == 1 && shard_index == 0) {
    // One square is an open tour by itself, from it to it; it has no pair of ends, so no
    // unit holds it: shard 0 does, and no other shard.
    out.tours = BigCount(1);
    out.tours_by_start = {BigCount(1)};
    out.tours_by_start_end = {BigCount(1)};
  }
  return out;
}

}  // namespace knightstour
