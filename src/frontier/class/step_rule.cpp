#include "frontier/class/step_rule.hpp"

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "knightstour/board/knight_geometry.hpp"

namespace knightstour {

namespace {

// Makes the rule of each step from what every step's rule reads: the sweep, the target and
// whether the sweep folds.
class RuleMaker {
 public:
  RuleMaker(const Sweep& sweep, const FrontierTarget& target, bool folds)
      : sweep_(sweep),
        target_(target),
        folds_(folds),
        w_(sweep.width()),
        n_(sweep.size()),
        window_(2 * w_ + 1),
        moves_(BoardShape{sweep.length(), w_}),
        imbalance_from_(static_cast<std::size_t>(n_) + 1, 0) {
    // 2 x (squares of colour 0 - of colour 1) from square k on, so that each step's
    // imbalance is one look-up: the rules cost time linear in the board's length.
    for (int b = n_ - 1; b >= 0; --b) {
      imbalance_from_[static_cast<std::size_t>(b)] =
          imbalance_from_[static_cast<std::size_t>(b) + 1] + (sweep.colour(b) == 0 ? 2 : -2);
    }
  }

  // Fills the rule of step k in place, into a StepRule as default-constructed.
  void fill(StepRule& r, int k) const {
    add_moves(r, k);
    r.last = k == n_ - 1;
    // After the last step there is nothing to fold.
    r.fold_mirror = folds_ && k % w_ == w_ - 1 && !r.last;
    add_liveness(r, k);
    add_looks(r, k);
  }

 private:
  // Unprocessed neighbours of square a once squares 0..k are processed. Sweep vertex
  // v * W + u is square (v, u) of a board L long and W wide, so the board's knight moves give
  // them, allocating nothing (this runs about 40 times a step).
  int future(int a, int k) const {
    std::uint32_t near[8];
    const int count = moves_.neighbours(static_cast<std::uint32_t>(a), near);
    int f = 0;
    for (int i = 0; i < count; ++i) f += static_cast<int>(near[i]) > k ? 1 : 0;
    return f;
  }

  // The edges square k may take: to earlier neighbours in the window, and to T (open tours).
  void add_moves(StepRule& r, int k) const {
    for (int d = 1; d <= window_; ++d) {
      if (sweep_.adjacent(k, k - d))
        r.candidates[r.candidate_count++] = static_cast<std::uint8_t>(1 + d);
    }
    if (target_.closed) return;
    r.has_t = true;
    r.candidates[r.candidate_count++] = 0;
    if (target_.pinned_end) {
      r.t_required = k == *target_.pinned || k == *target_.pinned_end;
      r.t_never = !r.t_required;
    } else if (target_.pinned) {
      r.t_required = k == *target_.pinned;
      r.t_only_first = k < *target_.pinned;
    }
  }

  // What each slot's square still needs after the step, and the colours left.
  void add_liveness(StepRule& r, int k) const {
    for (int d = 0; d <= window_; ++d) {
      const int a = k - d;
      if (a < 0) continue;
      const std::uint32_t slot = 1u << (1 + d);
      const int f = future(a, k);
      if (f == 0) r.no_future |= slot;
      if (f == 1) r.one_future |= slot;
      (sweep_.colour(a) == 0 ? r.colour0 : r.colour1) |= slot;
    }
    r.future_imbalance = imbalance_from_[static_cast<std::size_t>(k) + 1];
  }

  // Unprocessed squares with fewer than two unprocessed neighbours: the processed ones they
  // reach.
  void add_looks(StepRule& r, int k) const {
    for (int b = k + 1; b < n_ && b <= k + window_; ++b) {
      const int f = future(b, k);
      if (f >= 2) continue;
      StepRule::Look look{0, f};
      for (int d = 0; d <= window_; ++d) {
        if (sweep_.adjacent(b, k - d)) look.slots |= 1u << (1 + d);
      }
      r.looks[r.look_count++] = look;
    }
  }

  const Sweep& sweep_;
  const FrontierTarget& target_;
  bool folds_;
  int w_, n_, window_;  // window: processed squares that can still have unprocessed neighbours
  KnightGeometry moves_;
  std::vector<int> imbalance_from_;
};

}  // namespace

StepRules make_step_rules(const Sweep& sweep, const FrontierTarget& target, bool fold_mirror,
                          const std::function<bool()>& stop) {
  const int w = sweep.width();
  const int n = sweep.size();
  if (target.closed && target.pinned) throw std::invalid_argument("a closed count has no pin");
  if (target.pinned_end && (!target.pinned || *target.pinned_end == *target.pinned)) {
    throw std::invalid_argument("a pinned end needs a pinned start on another vertex");
  }
  StepRules rules;
  rules.width = w;
  rules.slots = class_slots(w);
  rules.squares = n;
  rules.odd = n % 2 == 1;
  rules.mirror = across_mirror(w);
  rules.steps.resize(static_cast<std::size_t>(n));
  // Whether the sweep is symmetric across, so that it folds at the end of each column: a
  // pinned sweep only where its pin is on the mirror's axis, the middle of an odd width,
  // its own image (mirror.hpp).
  const bool folds =
      fold_mirror && w > 1 && !target.pinned_end &&
      (!target.pinned || (*target.pinned < n && w % 2 == 1 && *target.pinned % w == w / 2));
  const RuleMaker maker(sweep, target, folds);
  for (int k = 0; k < n; ++k) {
    if (stop && k % 4096 == 4095 && stop()) {
      rules.stopped = true;
      rules.steps.resize(static_cast<std::size_t>(k));
      return rules;
    }
    maker.fill(rules.steps[static_cast<std::size_t>(k)], k);
  }
  return rules;
}

}  // namespace knightstour
