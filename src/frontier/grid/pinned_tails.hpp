#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontier/grid/all_starts_outlook.hpp"
#include "frontier/grid/start_squares.hpp"
#include "frontier/sweep/job_report.hpp"
#include "frontier/sweep/job_sweeps.hpp"
#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/frontier/frontier_options.hpp"
#include "knightstour/frontier/frontier_report.hpp"

namespace knightstour::frontier_detail {

// Open tours over all starts: one pinned sweep per class of start squares, sharing their
// common beginning. Before its pinned square a pinned sweep follows rules that do not
// depend on the pin (T may take one edge, not two), so a single "prefix" sweep runs those
// rules and, on reaching a class's pin, hands a copy of its classes to a sweep pinned
// there that finishes the count. Each class is pinned at the member the sweep reaches
// last: the prefix is one sweep in all, and what is left after a pin is short.
template <class Sweeper>
bool count_by_pinned_tails(BoardShape shape, const std::vector<StartClass>& classes,
                           const FrontierOptions& options, StopControl& stop,
                           FrontierJournal* journal, FrontierReport& report, Sweeper& sweep) {
  const Sweep s(shape);
  struct Pin {
    int vertex;
    const StartClass* cls;
  };
  std::vector<Pin> pins;
  for (const auto& cls : classes) {
    int last = -1;
    for (auto sq : cls.squares) last = std::max(last, s.vertex(sq));
    pins.push_back({last, &cls});
  }
  std::sort(pins.begin(), pins.end(),
            [](const Pin& a, const Pin& b) { return a.vertex < b.vertex; });
  std::vector<int> vertices;
  for (const auto& pin : pins) vertices.push_back(pin.vertex);
  AllStartsOutlook outlook(s, std::move(vertices));
  const int first_fork = report.sweeps;  // sweep index of the first pinned sweep
  const int prefix_index = first_fork + static_cast<int>(pins.size());
  const FrontierTarget prefix_target{false, s.size()};  // pinned past the end: never reached

  std::optional<FrontierState> prefix;
  bool prefix_looked_up = journal == nullptr;  // a saved prefix is read only when needed
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const Pin& pin = pins[i];
    const int index = first_fork + static_cast<int>(i);
    BigCount from;
    std::optional<FrontierState> start;
    // A pinned sweep finished or saved by an earlier run needs no prefix to start from.
    const bool needs_prefix =
        journal == nullptr || (!journal->finished(index) && !journal->has_saved(index));
    if (needs_prefix) {
      if (!prefix_looked_up) {
        prefix = saved_state(*journal, prefix_index);
        prefix_looked_up = true;
      }
      // The prefix up to the pin (from a saved prefix when it has not passed the pin).
      if (prefix && prefix->next_step > pin.vertex) prefix.reset();
      FrontierOptions o = options;
      o.until_step = pin.vertex;
      o.label = "open tours, the part before the pins";
      if (journal != nullptr) {
        o.after_step = [&](const FrontierState& st) { journal->after_step(prefix_index, st); };
      }
      FrontierResult r = run_frontier(s, prefix_target, o, stop, std::move(prefix));
      add_to_report(report, r, false);
      keep_if_stopped(journal, prefix_index, r, report);
      if (!r.paused) {
        report.classes_left = outlook.classes_left(report.stopped_outlook, i, false);
        return false;
      }
      prefix = std::move(r.paused);
      start = *prefix;  // a copy: classes in memory are copied, spill files shared
      outlook.prefix_paused(r);
    }
    const int r = static_cast<int>(pin.cls->representative / shape.cols);
    const int c = static_cast<int>(pin.cls->representative % shape.cols);
    if (!sweep(s, FrontierTarget{false, pin.vertex},
               "open tours from r,c " + std::to_string(r) + "," + std::to_string(c), from,
               std::move(start))) {
      report.classes_left = outlook.classes_left(report.stopped_outlook, i, true);
      return false;
    }
    for (auto sq : pin.cls->squares) {
      report.tours_by_start[static_cast<std::size_t>(sq)] = from;
      report.tours += from;
    }
  }
  return true;
}

}  // namespace knightstour::frontier_detail
