#pragma once

#include <utility>

#include "frontier/store/generation_store.hpp"
#include "frontier/sweep/frontier_counter.hpp"

namespace knightstour::test {

// A small sweep state after `step` steps: three classes with counts 1, 2 and 3, what the
// run-directory tests save and resume.
inline FrontierState state_at(int step) {
  Generation<1> g;
  g.parts.push_back(
      part_of<1>({1, 5, 9}, {WideCount<1>{{1}}, WideCount<1>{{2}}, WideCount<1>{{3}}}));
  FrontierState state;
  state.next_step = step;
  state.classes = std::move(g);
  return state;
}

}  // namespace knightstour::test
