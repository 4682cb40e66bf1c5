#pragma once

#include <string>

#include "knightstour/count/count_request.hpp"

namespace knightstour {

// The method that counts a job and why, in a few words for the output.
struct MethodChoice {
  Method method = Method::dfs;
  std::string why;
};

// The faster method for the job, by the rule measured in results/bench/method.md:
//  - the enumerator when the job needs it: a --prefix, a shard, tours by last square, the
//    node or tour caps, --algorithm, --no-symmetry or --split-depth;
//  - the frontier method when only it can: past 64 squares, or when its own options
//    (--memory, --spill-dir) are given;
//  - otherwise by size: the frontier from kFrontierClosedAllStartsSquares squares on for
//    closed counts over all starts (one sweep counts every start: 5x8 0.013 s against 0.15 s
//    by dfs), from kFrontierClosedSquares for closed counts from one start, and from
//    kFrontierOpenSquares for open counts (one start or all); below that the enumerator,
//    whose set-up costs nothing (6x6 closed from a1: 0.007 s by dfs, 0.014 s by the
//    frontier; 6x6 open from a1: 0.03 s against 0.12 s).
// A forced method (--method dfs|frontier) is checked against the job instead: an option
// or a board it cannot take is a UsageError that says what to do. `shape` and the job's
// fields must be filled.
MethodChoice choose_method(const CountRequest& request);

inline constexpr int kFrontierClosedAllStartsSquares = 36;
inline constexpr int kFrontierClosedSquares = 40;
inline constexpr int kFrontierOpenSquares = 40;

}  // namespace knightstour
