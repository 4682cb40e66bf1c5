#pragma once

#include <bit>
#include <cstdint>

#include "knightstour/frontier/frontier_class.hpp"
#include "knightstour/frontier/step_rule.hpp"

namespace knightstour {

namespace frontier_detail {

// Adds the edge between the new square (slot 1) and slot u. Returns true when the edge
// closes a fragment into a cycle (u was the new square's mate).
inline bool link(Frontier& f, int u) {
  const std::uint32_t ub = 1u << u;
  constexpr std::uint32_t vb = 2u;  // slot 1, the new square
  if (f.free & vb) {
    f.free &= ~vb;
    if (f.free & ub) {  // a new fragment u - v
      f.free &= ~ub;
      f.mate[1] = static_cast<std::uint8_t>(u);
      f.mate[u] = 1;
    } else {  // v extends u's fragment; u is now inside it
      const int x = f.mate[u];
      f.done |= ub;
      f.mate[1] = static_cast<std::uint8_t>(x);
      f.mate[x] = 1;
    }
    return false;
  }
  const int y = f.mate[1];  // v is already an end; this is its second edge
  f.done |= vb;
  if (f.free & ub) {  // u extends v's fragment
    f.free &= ~ub;
    f.mate[u] = static_cast<std::uint8_t>(y);
    f.mate[y] = static_cast<std::uint8_t>(u);
    return false;
  }
  f.done |= ub;
  if (y == u) return true;  // both ends of one fragment: a cycle
  const int x = f.mate[u];  // two fragments joined at v: their far ends become mates
  f.mate[x] = static_cast<std::uint8_t>(y);
  f.mate[y] = static_cast<std::uint8_t>(x);
  return false;
}

}  // namespace frontier_detail

// One DP step for one class: every choice of at most two edges from the new square to
// earlier squares (and T), kept when the result can still become a tour. Calls
// emit(key) for each live successor class and close() for each completed cycle (the last
// step only). No allocation, no logging, no virtual calls: this is the frontier's kernel.
template <class Emit, class Close>
inline void expand(const StepRules& rules, const StepRule& r, std::uint64_t key, Emit&& emit,
                   Close&& close) {
  const int slots = rules.slots;
  Frontier s;
  unpack(key, slots, 1, s);
  s.free |= 2u;  // the new square, degree 0
  const std::uint32_t all = (1u << (slots + 1)) - 1;
  const int n = r.candidate_count;
  const int t_index = r.has_t ? n - 1 : -1;
  // Candidates that can take an edge: not done; T subject to the pin's rule.
  std::uint32_t open = 0;
  for (int i = 0; i < n; ++i) {
    const int u = r.candidates[i];
    if (s.done & (1u << u)) continue;
    if (u == 0 && r.t_only_first && !(s.free & 1u)) continue;
    open |= 1u << i;
  }

  // The successor with edges to candidates i and j (-1: none), if it can become a tour.
  auto successor = [&](int i, int j) {
    if (r.t_required && i != t_index && j != t_index) return;
    Frontier t = s;
    bool cycle = false;
    if (i >= 0) cycle = frontier_detail::link(t, r.candidates[i]);
    if (j >= 0) cycle = frontier_detail::link(t, r.candidates[j]) || cycle;
    const std::uint32_t not_done = ~t.done & all;
    if (cycle) {
      if (r.last && not_done == 0) close();
      return;
    }
    if (r.last) return;
    if (not_done & r.no_future) return;
    if (t.free & r.one_future) return;
    // Colour balance of the edge ends still needed (T excluded; see StepRule).
    const int need = std::popcount(not_done & r.colour0) + std::popcount(t.free & r.colour0) -
                     std::popcount(not_done & r.colour1) - std::popcount(t.free & r.colour1) +
                     r.future_imbalance;
    const int t_left = !r.has_t ? 0 : (t.free & 1u) ? 2 : (t.done & 1u) ? 0 : 1;
    if (!r.has_t) {
      if (need != 0) return;
    } else if (rules.odd) {
      if (need != t_left) return;  // both ends of the path on colour 0
    } else if (t_left == 1 ? (need != 1 && need != -1) : need != 0) {
      return;  // one end on each colour
    }
    int need_t = 0;
    for (int l = 0; l < r.look_count; ++l) {
      const int can = r.looks[l].future + std::popcount(r.looks[l].slots & not_done);
      if (can == 0) return;
      if (can == 1) ++need_t;  // one edge short: only T can give it
    }
    if (need_t > t_left) return;
    emit(pack(t, slots));
  };

  successor(-1, -1);
  for (int i = 0; i < n; ++i) {
    if (!(open & (1u << i))) continue;
    successor(i, -1);
    for (int j = i + 1; j < n; ++j) {
      if (open & (1u << j)) successor(i, j);
    }
  }
}

}  // namespace knightstour
