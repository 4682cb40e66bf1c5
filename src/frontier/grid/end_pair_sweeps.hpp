#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontier/grid/start_squares.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier/frontier_report.hpp"
#include "knightstour/frontier/frontier_request.hpp"

namespace knightstour::frontier_detail {

// Open tours over all starts by end pairs (EndPairUnit, frontier_request.hpp): one sweep with both
// ends pinned per unit of this shard (in spread_order), oriented to reach its later pin soonest.
// Fills the grid, the start x end table and the closed tours (those whose ends are a knight's move
// apart); the cycles too when every unit is counted (2C closed tours start on each square).
template <class SweepNumber>
bool count_by_end_pairs(const FrontierRequest& request, FrontierReport& report,
                        SweepNumber& sweep_number) {
  const BoardShape shape = request.shape;
  auto name = [&](std::int64_t q) {
    return square_name(static_cast<int>(q / shape.cols), static_cast<int>(q % shape.cols));
  };
  const std::vector<EndPairUnit> units = end_pair_units(shape);
  std::map<int, BigCount> by_unit;
  for (const int id : spread_order(static_cast<int>(units.size()), request.shard)) {
    const EndPairUnit& unit = units[static_cast<std::size_t>(id)];
    const Sweep s(shape, best_orientation_for(shape, unit.start, unit.end));
    const std::string what = "open tours " + name(unit.start) + "-" + name(unit.end) + " (unit " +
                             std::to_string(unit.id) + ")";
    if (!sweep_number(unit.id, s, FrontierTarget{false, s.vertex(unit.start), s.vertex(unit.end)},
                      what, by_unit[unit.id])) {
      return false;
    }
  }
  EndPairCounts counts = end_pair_counts(shape, units, by_unit, request.shard.index);
  report.tours = counts.tours;
  report.closed_tours = counts.closed_tours;
  report.tours_by_start = std::move(counts.tours_by_start);
  report.closed_by_start = std::move(counts.closed_by_start);
  report.tours_by_start_end = std::move(counts.tours_by_start_end);
  if (counts.cycles) report.cycles = *counts.cycles;
  return true;
}

}  // namespace knightstour::frontier_detail
