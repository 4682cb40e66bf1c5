#pragma once

// How a job shares its memory budget (FrontierOptions::memory_budget) among what it holds at
// once: each share, with its reason, in one place. (Within a step the budget is shared by
// the step's plan: kPassFill and the slices' fills in step/step_plan.hpp, kCombineFrom in
// step/step_layout.hpp.)

#include <algorithm>
#include <cstdint>

namespace knightstour::frontier_detail {

// The grid by the pass back (grid_by_pass.cpp) holds three things at its fullest: the
// unpinned sweep's current step, the generations kept for the pass, and the pass's tables
// (with a column's generations recomputed when only each column's first is kept). The
// sweep gets a quarter and the kept generations half, the larger share to what grows with
// the board's length (every generation, against one step's); the pass checks that it fits
// the rest before it starts. The fractions were chosen, not tuned: no measurement picked
// them (docs/frontier.md, "the pass back").
inline std::uint64_t pass_sweep_share(std::uint64_t memory_budget) { return memory_budget / 4; }
inline std::uint64_t kept_generations_share(std::uint64_t memory_budget) {
  return memory_budget / 2;
}

// A sweep started from a copy of a shared prefix's generation (pinned tails, job_sweeps.hpp)
// holds that copy beside its own steps: the copy's bytes come off its budget.
inline std::uint64_t beside_held(std::uint64_t memory_budget, std::uint64_t held) {
  return memory_budget - std::min(memory_budget, held);
}

}  // namespace knightstour::frontier_detail
