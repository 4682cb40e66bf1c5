#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour::test {

// A whole sweep of `sweep` for `target` on `threads` threads, without caps or budget.
inline FrontierResult whole_sweep(const Sweep& sweep, const FrontierTarget& target,
                                  int threads = 2) {
  StopControl stop(Caps{});
  FrontierOptions options;
  options.threads = threads;
  return run_frontier(sweep, target, options, stop);
}

// Calls f(k, rule, key) for every class of every generation of a sweep: the classes step k
// expands, built by the engine itself (run_frontier paused before step k), with step k's
// rule (`rules` are make_step_rules of the sweep and target). For kernel tests that compare
// two ways of expanding a class on real generations. Stops at the first fatal failure, in f
// or here; the caller checks for it (ASSERT_NO_FATAL_FAILURE), as f's ASSERTs end only f.
template <class F>
void for_each_generation_class(const Sweep& sweep, const FrontierTarget& target,
                               const StepRules& rules, F&& f) {
  FrontierOptions options;
  options.threads = 2;
  for (int k = 0; k < rules.squares; ++k) {
    options.until_step = k;
    StopControl stop(Caps{});
    FrontierResult paused = run_frontier(sweep, target, options, stop);
    if (!paused.paused.has_value()) {
      FAIL() << "the sweep did not pause before step " << k;
    }
    const auto& current = std::get<Generation<1>>(paused.paused->classes);
    const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
    std::vector<std::uint64_t> keys;
    current.for_each_class([&](std::uint64_t key, const WideCount<1>&) { keys.push_back(key); });
    for (const std::uint64_t key : keys) {
      f(k, rule, key);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

}  // namespace knightstour::test
