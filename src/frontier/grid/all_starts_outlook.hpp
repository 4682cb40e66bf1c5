#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"

namespace knightstour::frontier_detail {

// What an all-starts job that stopped still has to expand (the report's classes_left, which
// `estimate` projects from). A pinned tail from pin p expands about what
// the sweep's profile (its generations, measured, then projected) holds from step p on, and
// the prefix between two pins what it holds between them. add_to_report() alone takes every sweep
// not started to cost a whole one, counting each tail as long as the first: 8x7 (16 tails)
// was projected at 3.6e10 classes for its 4.9e9. The profile is projected from the prefix's
// generations followed by the stopped run's own: a tail stopped a few steps after its pin
// has too short a history of its own to see the growth.
class AllStartsOutlook {
 public:
  // `pins`: the pins' vertices in sweep order.
  AllStartsOutlook(const Sweep& s, std::vector<int> pins)
      : pins_(std::move(pins)), steps_(s.size()), width_(s.width()) {}

  // A stretch of the prefix reached its pin: its generations join the history.
  void prefix_paused(const FrontierResult& r) {
    const int start = r.outlook.next_step - static_cast<int>(r.classes.size());
    if (start != end_) history_.clear();
    history_.insert(history_.end(), r.classes.begin(), r.classes.end());
    end_ = r.outlook.next_step;
  }

  // Classes left when `stopped` (FrontierReport::stopped_outlook) is the prefix on its way to
  // pins[next] (in_tail false) or the tail of pins[next] (in_tail true).
  double classes_left(const SweepOutlook& stopped, std::size_t next, bool in_tail) const {
    SweepOutlook o = stopped;
    const int measured = stopped.next_step - stopped.first_step;
    if (end_ == stopped.first_step && !history_.empty() && measured > 0 &&
        static_cast<std::size_t>(measured) <= stopped.profile.size()) {
      std::vector<std::uint64_t> sizes = history_;
      for (int k = 0; k < measured; ++k)
        sizes.push_back(static_cast<std::uint64_t>(stopped.profile[static_cast<std::size_t>(k)]));
      o = sweep_outlook(sizes, stopped.next_step, steps_, width_, sizes.back());
    }
    auto expanded = [&](int from, int to) { return profile_classes(o, from, to); };
    // The run's own rest (the step under way is redone whole), the prefix from pins[next] to
    // the last pin, and the tails not started.
    double left = expanded(o.next_step, in_tail ? steps_ : pins_[next]);
    left += expanded(pins_[next], pins_.back());
    for (std::size_t i = in_tail ? next + 1 : next; i < pins_.size(); ++i)
      left += expanded(pins_[i], steps_);
    return left;
  }

 private:
  std::vector<int> pins_;
  int steps_;
  int width_;
  std::vector<std::uint64_t> history_;  // the prefix's generations after steps ... end_ - 1
  int end_ = -1;
};

}  // namespace knightstour::frontier_detail
