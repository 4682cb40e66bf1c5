#pragma once

#include <bit>
#include <cstdint>

#include "frontier/class/frontier_class.hpp"
#include "frontier/class/step_rule.hpp"

namespace knightstour {

// Which choices of a step can still become a tour depends on the class's slot types alone
// (free, done, end), not on its mates: the edges take each of their squares one degree up
// whatever the mates are, and every pruning rule reads degrees. The mates decide one thing
// only, whether a choice that joins two ends closes a cycle (link(), transition.hpp). So the
// step finds the live choices from the types first, and classes that share their types can
// share that work (choice_plans.hpp).

namespace frontier_detail {

// The types an edge from the new square (slot 1) to slot u leaves: each of the two squares
// one degree up (free to end, end to done).
KNIGHTSTOUR_FRONTIER_INLINE void link_types(std::uint32_t& free, std::uint32_t& done, int u) {
  const std::uint32_t both = 2u | (1u << u);
  done |= both & ~free;
  free &= ~both;
}

}  // namespace frontier_detail

// Calls visit(i, j) for every choice of at most two edges from the new square to
// candidates i < j of step rule r (-1: no edge; j = -1 with i >= 0: one edge) that a class
// with these types can take and still become a tour, in a fixed order: no edge first, then
// i ascending, for each i the single edge and then j ascending. `free` and `done` are the
// class's slots in the step's wide view, the new square (slot 1) free.
//
// Not last step: every choice visited lives unless it closes a cycle (the mates tell).
// Last step: only the choices that join two ends and leave every slot done are visited;
// they complete a tour exactly when they close a cycle.
//
// One function, longer than most: its pruning rules read the masks made at its head and run
// in order for each choice, and a reader checks them against the invariants in one place.
template <class Visit>
KNIGHTSTOUR_FRONTIER_INLINE void for_each_live_choice(const StepRules& rules, const StepRule& r,
                                                      std::uint32_t free, std::uint32_t done,
                                                      Visit&& visit) {
  const int slots = rules.slots;
  const std::uint32_t all = (1u << (slots + 1)) - 1;
  const int n = r.candidate_count;
  const int t_index = r.has_t ? n - 1 : -1;
  // Candidates that can take an edge: not done; T subject to the pin's rule.
  std::uint32_t open = 0;
  std::uint32_t candidate_slots = 0;
  for (int i = 0; i < n; ++i) {
    const int u = r.candidates[i];
    candidate_slots |= 1u << u;
    if (done & (1u << u)) continue;
    if (u == 0 && (r.t_never || (r.t_only_first && !(free & 1u)))) continue;
    open |= 1u << i;
  }
  // Edges every successor must take, found before trying any choice (the checks after the
  // edges would reject the rest; this only saves trying them). A slot that must be done
  // after the step and is an end needs its edge now; one that must not be free and is
  // free needs one now; a free earlier slot that must be done cannot get two.
  const std::uint32_t old_free = free & ~2u;
  const std::uint32_t old_ends = ~(free | done) & all;
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
  // changes it (by the new square's colour).
  const std::uint32_t not_done_before = ~done & all;
  const int need0 = std::popcount(not_done_before & r.colour0) + std::popcount(free & r.colour0) -
                    std::popcount(not_done_before & r.colour1) - std::popcount(free & r.colour1) +
                    r.future_imbalance;
  const int t_left0 = !r.has_t ? 0 : (free & 1u) ? 2 : (done & 1u) ? 0 : 1;
  const int new_square_colour = (r.colour0 & 2u) ? 1 : -1;
  auto balanced_as = [&](bool takes_t, int future_imbalance, bool odd) {
    const int need =
        need0 - r.future_imbalance + future_imbalance - (takes_t ? new_square_colour : 0);
    const int t_left = t_left0 - (takes_t ? 1 : 0);
    if (!r.has_t) return need == 0;
    if (odd) return need == t_left;  // both ends of the path on colour 0
    return t_left == 1 ? (need == 1 || need == -1) : need == 0;  // one end on each colour
  };
  auto balanced = [&](bool takes_t) {
    return balanced_as(takes_t, r.future_imbalance, rules.odd) ||
           (r.either_parity && balanced_as(takes_t, r.other_imbalance, !rules.odd));
  };
  const bool balanced_without_t = balanced(false);
  const bool balanced_with_t = r.has_t && balanced(true);

  // Inlined at its three calls: GCC made the kernel's equivalent a function that reread
  // every capture from memory on each try (7x8 closed 5% faster inlined).
  auto consider = [&](int i, int j) __attribute__((always_inline)) {
    const bool takes_t = r.has_t && (i == t_index || j == t_index);
    if (r.t_required && !takes_t) return;
    std::uint32_t f = free, d = done;
    if (i >= 0) frontier_detail::link_types(f, d, r.candidates[i]);
    if (j >= 0) frontier_detail::link_types(f, d, r.candidates[j]);
    const std::uint32_t not_done = ~d & all;
    if (r.last) {
      // A cycle needs an edge to each of two ends (an edge to a free square makes no cycle).
      const bool joins_ends =
          j >= 0 && ((1u << r.candidates[i]) & free) == 0 && ((1u << r.candidates[j]) & free) == 0;
      if (joins_ends && not_done == 0) visit(i, j);
      return;
    }
    if (!(takes_t ? balanced_with_t : balanced_without_t)) return;
    if (not_done & r.no_future) return;
    if (f & r.one_future) return;
    const int t_left = t_left0 - (takes_t ? 1 : 0);
    int need_t = 0;
    for (int l = 0; l < r.look_count; ++l) {
      const int can = r.looks[l].future + std::popcount(r.looks[l].slots & not_done);
      if (can == 0) return;
      if (can == 1) ++need_t;  // one edge short: only T can give it
    }
    if (need_t > t_left) return;
    visit(i, j);
  };

  if (must == 0 && min_edges == 0) consider(-1, -1);
  for (int i = 0; i < n; ++i) {
    if (!(open & (1u << i))) continue;
    if ((must & ~(1u << i)) == 0 && min_edges <= 1) consider(i, -1);
    for (int j = i + 1; j < n; ++j) {
      if ((open & (1u << j)) && (must & ~((1u << i) | (1u << j))) == 0) consider(i, j);
    }
  }
}

}  // namespace knightstour
