#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "frontier/class/frontier_class.hpp"
#include "frontier/class/mirror.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {

// What is counted: Hamiltonian cycles of the knight graph (closed tours), or Hamiltonian
// paths (open tours), optionally only those with one end on a given sweep vertex (the tours
// from that start).
struct FrontierTarget {
  bool closed = false;
  std::optional<int> pinned;  // open tours only: sweep vertex that must be an end
  // With `pinned`: the sweep vertex that must be the other end, so that the sweep counts the
  // paths between the two (the tours from one ending on the other). T then takes its two
  // edges at the pins and nowhere else: the count is of cycles through T, s and t.
  std::optional<int> pinned_end = std::nullopt;
  friend bool operator==(const FrontierTarget&, const FrontierTarget&) = default;
};

// Everything step k of the sweep needs, precomputed. Slots are in the step's wide view:
// 0 is T, 1 the new square k, 1 + d the square k - d (d = 1 .. 2W+1; the last one leaves
// the window after this step).
struct StepRule {
  // Earlier neighbours of square k as wide slots, ascending; T last for open tours.
  std::uint8_t candidates[5] = {};
  int candidate_count = 0;
  bool has_t = false;         // the last candidate is T
  bool t_required = false;    // the pinned start: its T edge is in every counted tour
  bool t_only_first = false;  // before the pinned start: T may get one edge, not two
  bool t_never = false;       // both ends pinned elsewhere: T takes no edge at this step
  bool last = false;          // square k is the last square: only closed cycles count
  // The step ends a column and the whole sweep is symmetric across (no pin, or a pin on the
  // axis): its successors are kept up to the mirror (mirror.hpp).
  bool fold_mirror = false;

  // Liveness after the step (pruning rules; each loses no tour):
  std::uint32_t no_future = 0;   // slots whose square has no unprocessed neighbour: must be done
  std::uint32_t one_future = 0;  // ... exactly one: must not be free (it needs two edges)
  std::uint32_t colour0 = 0;     // slots of squares of colour 0
  std::uint32_t colour1 = 0;
  // 2 x (unprocessed squares of colour 0 - of colour 1). Every edge still to come joins the
  // two colours, so the edge ends the processed squares still need (2 for free, 1 for an
  // end) balance the unprocessed squares' needs, up to T's remaining edges.
  int future_imbalance = 0;
  // A sweep that also counts boards of the other parity of squares on its way (their squares
  // still to come hold other_imbalance): a class balanced as they are passes too.
  bool either_parity = false;
  int other_imbalance = 0;
  // Unprocessed squares close to the window that have fewer than two unprocessed
  // neighbours: they need edges to processed squares (or T) that are not done yet.
  struct Look {
    std::uint32_t slots;  // processed neighbours, as slots
    int future;           // unprocessed neighbours
  };
  Look looks[kMaxStepSlots] = {};
  int look_count = 0;
};

struct StepRules {
  int width = 0;
  int slots = 0;  // class_slots(width)
  int squares = 0;
  bool odd = false;  // an odd number of squares: both ends of an open tour on colour 0
  MirrorMap mirror;  // of the classes after a step that ends a column
  std::vector<StepRule> steps;
  bool stopped = false;  // `stop` said so before every step's rule was made (steps is short)
};

// `fold_mirror` false: no step keeps its classes up to the mirror (tests compare both).
// `stop`, when given, is asked every few thousand steps (a long board's rules take a while:
// 0.4 s for 9x100000) and ends the making when it says true.
StepRules make_step_rules(const Sweep& sweep, const FrontierTarget& target, bool fold_mirror = true,
                          const std::function<bool()>& stop = nullptr);

}  // namespace knightstour
