#include "knightstour/find/textbook_backtrack.hpp"

#include <charconv>
#include <cstdlib>
#include <set>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/knight_geometry.hpp"

namespace knightstour {

MoveOrder parse_move_order(std::string_view text) {
  MoveOrder order;
  order.name = std::string(text);
  if (text == "cw") {
    order.steps = {{{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}}};
    return order;
  }
  if (text == "ccw") {
    order.steps = {{{2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}, {1, 2}, {2, 1}}};
    return order;
  }
  const std::string bad = "--move-order '" + std::string(text) +
                          "': expected cw, ccw, or the eight knight steps as rank:file pairs, e.g. "
                          "2:1,1:2,-1:2,-2:1,-2:-1,-1:-2,1:-2,2:-1";
  std::set<std::pair<int, int>> seen;
  std::size_t pos = 0;
  for (int i = 0; i < 8; ++i) {
    const auto comma = text.find(',', pos);
    const auto item = text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
    const auto colon = item.find(':');
    if (colon == std::string_view::npos) throw UsageError(bad);
    int dr = 0, dc = 0;
    const auto a = item.substr(0, colon), b = item.substr(colon + 1);
    if (std::from_chars(a.data(), a.data() + a.size(), dr).ptr != a.data() + a.size() ||
        std::from_chars(b.data(), b.data() + b.size(), dc).ptr != b.data() + b.size() ||
        a.empty() || b.empty() || std::abs(dr * dc) != 2 || !seen.insert({dr, dc}).second) {
      throw UsageError(bad);
    }
    order.steps[static_cast<std::size_t>(i)] = {dr, dc};
    if ((comma == std::string_view::npos) != (i == 7)) throw UsageError(bad);
    pos = comma + 1;
  }
  return order;
}

BacktrackResult textbook_backtrack(const BoardShape& shape, std::uint32_t start, bool closed,
                                   const MoveOrder& order, std::uint64_t max_checks,
                                   StopControl* stop) {
  BacktrackResult result;
  const int rows = shape.rows, cols = shape.cols;
  const auto n = static_cast<std::uint32_t>(shape.squares());
  std::vector<std::uint8_t> visited(n, 0);
  std::vector<std::uint32_t> path{start};
  std::vector<std::uint8_t> next_move{0};
  visited[start] = 1;
  result.placements = 1;
  const KnightGeometry geometry(shape);
  auto closes = [&](std::uint32_t a) { return geometry.adjacent(a, start); };
  while (true) {
    if (path.size() == n && (!closed || n == 1 || closes(path.back()))) {
      result.outcome =
          n == 1 && closed ? BacktrackResult::Outcome::none : BacktrackResult::Outcome::found;
      if (result.outcome == BacktrackResult::Outcome::found) result.tour = path;
      return result;
    }
    if (max_checks && result.checks >= max_checks) return result;
    if ((result.checks & 0xFFFFF) == 0 && stop && stop->poll()) return result;
    auto& k = next_move.back();
    if (k == 8 || path.size() == n) {  // every move from here tried: step back
      visited[path.back()] = 0;
      path.pop_back();
      next_move.pop_back();
      if (path.empty()) {
        result.outcome = BacktrackResult::Outcome::none;
        return result;
      }
      continue;
    }
    const auto [dr, dc] = order.steps[k++];
    ++result.checks;
    const int r = static_cast<int>(path.back() / static_cast<std::uint32_t>(cols)) + dr;
    const int c = static_cast<int>(path.back() % static_cast<std::uint32_t>(cols)) + dc;
    if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
    const auto to = static_cast<std::uint32_t>(r) * static_cast<std::uint32_t>(cols) +
                    static_cast<std::uint32_t>(c);
    if (visited[to]) continue;
    visited[to] = 1;
    path.push_back(to);
    next_move.push_back(0);
    ++result.placements;
  }
}

}  // namespace knightstour
