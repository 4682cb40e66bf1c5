#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

#include "frontier/class/frontier_class.hpp"
#include "frontier/class/live_choices.hpp"
#include "frontier/class/step_rule.hpp"

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

namespace frontier_detail {

// take_choice() with the edges linked in t, a copy of the class the caller made (and may
// not use again).
template <BitKernel B, class Emit, class Close>
KNIGHTSTOUR_FRONTIER_INLINE void take_choice_in(const StepRules& rules, const StepRule& r,
                                                Frontier& t, std::uint32_t s_closers, int i, int j,
                                                Emit& emit, Close& close) {
  const int slots = rules.slots;
  std::uint32_t closers = s_closers;
  bool cycle = link(t, closers, r.candidates[i]);
  if (j >= 0) cycle = link(t, closers, r.candidates[j]) || cycle;
  if (cycle) {
    if (r.last) close();
    return;
  }
  if (r.last) return;
  // Debug builds check the closers kept while linking against the mates, and B's key
  // against the portable one.
  assert(pack<B>(t, slots, closers) == pack(t, slots));
  emit(pack<B>(t, slots, closers));
}

// Takes choice (i, j) of for_each_live_choice (live_choices.hpp) from class s (unpacked
// from `key`, the new square free; `s_closers` its closers): links the edges with the
// mates, and emits the successor's key, or calls close() for a cycle the last step
// completes. A cycle before the last step is dropped.
template <BitKernel B, class Emit, class Close>
KNIGHTSTOUR_FRONTIER_INLINE void take_choice(const StepRules& rules, const StepRule& r,
                                             std::uint64_t key, const Frontier& s,
                                             std::uint32_t s_closers, int i, int j, Emit& emit,
                                             Close& close) {
  const int slots = rules.slots;
  if (i < 0) {
    // No edge: the class's own key, shifted (frontier_class.hpp).
    assert(!r.last);
    assert(shifted_key(key, slots) == pack(s, slots));
    emit(shifted_key(key, slots));
    return;
  }
  Frontier t = s;
  take_choice_in<B>(rules, r, t, s_closers, i, j, emit, close);
}

}  // namespace frontier_detail

// One DP step for one class: every choice of at most two edges from the new square to
// earlier squares (and T), kept when the result can still become a tour. Calls
// emit(key) for each live successor class and close() for each completed cycle (the last
// step only). No allocation, no logging, no virtual calls: this is the frontier's kernel.
// B: how keys are packed and unpacked (bit_kernel.hpp); every B gives the same successors.
// The engine's steps take the same choices through a plan shared by the classes of one type
// pattern (expand_planned, choice_plans.hpp); this is the reference it is tested against.
template <BitKernel B = BitKernel::portable, class Emit, class Close>
inline void expand(const StepRules& rules, const StepRule& r, std::uint64_t key, Emit&& emit,
                   Close&& close) {
  Frontier s;
  const std::uint32_t s_closers = unpack<B>(key, rules.slots, 1, s);
  s.free |= 2u;  // the new square, degree 0
  for_each_live_choice(
      rules, r, s.free, s.done, [&](int i, int j) __attribute__((always_inline)) {
        frontier_detail::take_choice<B>(rules, r, key, s, s_closers, i, j, emit, close);
      });
}

}  // namespace knightstour
