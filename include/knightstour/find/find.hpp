#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/find/textbook_backtrack.hpp"

namespace knightstour {

enum class FindMethod {
  warnsdorff,  // Warnsdorff's rule with repair, then an exact search with Warnsdorff ordering
  backtrack,   // textbook backtracking with a fixed move order
};

struct FindRequest {
  BoardShape shape;
  std::uint32_t start = 0;
  bool closed = false;
  std::uint64_t seed = 0;
  FindMethod method = FindMethod::warnsdorff;
  MoveOrder order = parse_move_order("cw");
  std::uint64_t max_nodes = 0;  // 0: the method's default cap
};

struct FindResult {
  enum class Outcome { found, impossible, stopped } outcome = Outcome::stopped;
  std::vector<std::uint32_t> tour;  // checked with TourChecker when found
  std::string how;                  // the method, or the proof of impossibility
  std::uint64_t work = 0;           // search nodes, or textbook checks
  double seconds = 0;
};

inline constexpr std::uint64_t kDefaultExactNodes = 200'000'000;
inline constexpr std::uint64_t kDefaultBacktrackChecks = 100'000'000;

// The request's refusals (a board past kMaxFindSquares, a start off the board), in the order
// checked; empty when it can be searched.
std::vector<std::string> check(const FindRequest& request);

// One tour (open, or closed when asked) from the start, deterministic for a given seed.
// A tour found is always checked before it is returned; `impossible` comes with a proof
// (a theorem, or an exhaustive search); `stopped` means the cap or `stop` came first.
// Refuses what check() refuses (UsageError).
FindResult find_tour(const FindRequest& request, StopControl* stop = nullptr);

}  // namespace knightstour
