#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

#include "knightstour/frontier/frontier_class.hpp"
#include "knightstour/frontier/step_rule.hpp"

namespace knightstour {

namespace frontier_detail {

// Sets a's mate to b, keeping `closers` (the ends whose mate is in an earlier slot; bits of
// slots that are not ends are stale, pack() ignores them).
KNIGHTSTOUR_FRONTIER_INLINE void set_mate(Frontier& f, std::uint32_t& closers, int a, int b) {
  f.mate[a] = static_cast<std::uint8_t>(b);
  closers = (closers & ~(1u << a)) | (static_cast<std::uint32_t>(b < a) << a);
}

// Adds the edge between the new square (slot 1) and slot u, keeping `closers`. Returns true
// when the edge closes a fragment into a cycle (u was the new square's mate).
KNIGHTSTOUR_FRONTIER_INLINE bool link(Frontier& f, std::uint32_t& closers, int u) {
  const std::uint32_t ub = 1u << u;
  constexpr std::uint32_t vb = 2u;  // slot 1, the new square
  if (f.free & vb) {
    f.free &= ~vb;
    if (f.free & ub) {  // a new fragment u - v
      f.free &= ~ub;
      set_mate(f, closers, 1, u);
      set_mate(f, closers, u, 1);
    } else {  // v extends u's fragment; u is now inside it
      const int x = f.mate[u];
      f.done |= ub;
      set_mate(f, closers, 1, x);
      set_mate(f, closers, x, 1);
    }
    return false;
  }
  const int y = f.mate[1];  // v is already an end; this is its second edge
  f.done |= vb;
  if (f.free & ub) {  // u extends v's fragment
    f.free &= ~ub;
    set_mate(f, closers, u, y);
    set_mate(f, closers, y, u);
    return false;
  }
  f.done |= ub;
  if (y == u) return true;  // both ends of one fragment: a cycle
  const int x = f.mate[u];  // two fragments joined at v: their far ends become mates
  set_mate(f, closers, x, y);
  set_mate(f, closers, y, x);
  return false;
}

}  // namespace frontier_detail

// One DP step for one class: every choice of at most two edges from the new square to
// earlier squares (and T), kept when the result can still become a tour. Calls
// emit(key) for each live successor class and close() for each completed cycle (the last
// step only). No allocation, no logging, no virtual calls: this is the frontier's kernel.
// B: how keys are packed and unpacked (bit_kernel.hpp); every B gives the same successors.
template <BitKernel B = BitKernel::portable, class Emit, class Close>
inline void expand(const StepRules& rules, const StepRule& r, std::uint64_t key, Emit&& emit,
                   Close&& close) {
  const int slots = rules.slots;
  Frontier s;
  const std::uint32_t s_closers = unpack<B>(key, slots, 1, s);
  s.free |= 2u;  // the new square, degree 0
  const std::uint32_t all = (1u << (slots + 1)) - 1;
  const int n = r.candidate_count;
  const int t_index = r.has_t ? n - 1 : -1;
  // Candidates that can take an edge: not done; T subject to the pin's rule.
  std::uint32_t open = 0;
  std::uint32_t candidate_slots = 0;
  for (int i = 0; i < n; ++i) {
    const int u = r.candidates[i];
    candidate_slots |= 1u << u;
    if (s.done & (1u << u)) continue;
    if (u == 0 && r.t_only_first && !(s.free & 1u)) continue;
    open |= 1u << i;
  }
  // Edges every successor must take, found before trying any choice (the checks after
  // linking would reject the rest; this only saves trying them). A slot that must be done
  // after the step and is an end needs its edge now; one that must not be free and is
  // free needs one now; a free earlier slot that must be done cannot get two.
  const std::uint32_t old_free = s.free & ~2u;
  const std::uint32_t old_ends = ~(s.free | s.done) & all;
  const std::uint32_t needs_edge =
      ((old_ends & r.no_future) | (old_free & r.one_future)) & ~candidate_slots;
  if ((needs_edge | (old_free & r.no_future)) != 0) return;
  std::uint32_t must = 0;  // candidate indices
  for (int i = 0; i < n; ++i) {
    const std::uint32_t b = 1u << r.candidates[i];
    if ((old_ends & r.no_future & b) || (old_free & r.one_future & b)) must |= 1u << i;
  }
  if (r.t_required && t_index >= 0) must |= 1u << t_index;  // (t_required implies has_t)
  if ((must & ~open) != 0 || std::popcount(must) > 2) return;
  // The new square (slot 1) needs two edges when it has no later neighbour, one when it has one.
  const int min_edges = (r.no_future & 2u) ? 2 : (r.one_future & 2u) ? 1 : 0;

  // Colour balance of the edge ends still needed (T excluded; see StepRule). An edge between
  // two squares joins the two colours, so it leaves the balance as it is: only an edge to T
  // changes it (by the new square's colour), and whether a successor passes is known before
  // linking, from the class and whether the successor takes T.
  const std::uint32_t s_not_done = ~s.done & all;
  const int need0 = std::popcount(s_not_done & r.colour0) + std::popcount(s.free & r.colour0) -
                    std::popcount(s_not_done & r.colour1) - std::popcount(s.free & r.colour1) +
                    r.future_imbalance;
  const int t_left0 = !r.has_t ? 0 : (s.free & 1u) ? 2 : (s.done & 1u) ? 0 : 1;
  const int new_square_colour = (r.colour0 & 2u) ? 1 : -1;
  auto balanced = [&](bool takes_t) {
    const int need = need0 - (takes_t ? new_square_colour : 0);
    const int t_left = t_left0 - (takes_t ? 1 : 0);
    if (!r.has_t) return need == 0;
    if (rules.odd) return need == t_left;  // both ends of the path on colour 0
    return t_left == 1 ? (need == 1 || need == -1) : need == 0;  // one end on each colour
  };
  const bool balanced_without_t = balanced(false);
  const bool balanced_with_t = r.has_t && balanced(true);

  // The successor with edges to candidates i and j (-1: none), if it can become a tour.
  // Inlined at its three calls: GCC made it a function that reread every capture from
  // memory on each try (7x8 closed 5% faster inlined).
  auto successor = [&](int i, int j) __attribute__((always_inline)) {
    const bool takes_t = r.has_t && (i == t_index || j == t_index);
    if (r.t_required && !takes_t) return;
    if (!r.last && !(takes_t ? balanced_with_t : balanced_without_t)) return;
    Frontier t = s;
    std::uint32_t closers = s_closers;
    bool cycle = false;
    if (i >= 0) cycle = frontier_detail::link(t, closers, r.candidates[i]);
    if (j >= 0) cycle = frontier_detail::link(t, closers, r.candidates[j]) || cycle;
    const std::uint32_t not_done = ~t.done & all;
    if (cycle) {
      if (r.last && not_done == 0) close();
      return;
    }
    if (r.last) return;
    if (not_done & r.no_future) return;
    if (t.free & r.one_future) return;
    const int t_left = t_left0 - (takes_t ? 1 : 0);
    int need_t = 0;
    for (int l = 0; l < r.look_count; ++l) {
      const int can = r.looks[l].future + std::popcount(r.looks[l].slots & not_done);
      if (can == 0) return;
      if (can == 1) ++need_t;  // one edge short: only T can give it
    }
    if (need_t > t_left) return;
    // Debug builds check the closers kept while linking against the mates, and B's key
    // against the portable one.
    assert(pack<B>(t, slots, closers) == pack(t, slots));
    if (i < 0) {
      // No edge: the class's own key, shifted (frontier_class.hpp).
      assert(shifted_key(key, slots) == pack(t, slots));
      emit(shifted_key(key, slots));
      return;
    }
    emit(pack<B>(t, slots, closers));
  };

  if (must == 0 && min_edges == 0) successor(-1, -1);
  for (int i = 0; i < n; ++i) {
    if (!(open & (1u << i))) continue;
    if ((must & ~(1u << i)) == 0 && min_edges <= 1) successor(i, -1);
    for (int j = i + 1; j < n; ++j) {
      if ((open & (1u << j)) && (must & ~((1u << i) | (1u << j))) == 0) successor(i, j);
    }
  }
}

}  // namespace knightstour
