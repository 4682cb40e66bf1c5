#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// The boards one sweep counts on its way (a row of every length, row_sweeps.hpp): the same
// width, each n columns long, the sweep's own board the longest. Sweep vertex k is the same
// square of every one, so up to a board's last step the steps make the same moves on the same
// squares. Each board but the longest is counted by its last step run aside, on the
// generation before the sweep's step nW - 1, with that board's own rule; the sweep goes on,
// and ends once the longest is counted the same way.
//
// Why that counts every board exactly: each step of the sweep runs the meet of the rules of
// the boards still to be counted after it (rules_for_every_board): a pruning rule is kept
// only where every one of them has it or a stricter one. Then no class that one of them could
// end is dropped, and the generation before a board's last step holds every class that
// board's own sweep would hold, with the same counts, and some more, which its last step
// rejects (a class it counts is a cycle through every square of the board, and T for paths).
// Far from the boards' ends their rules are the same; near the end of the shortest board
// left, its looks at squares the longer ones have go, and the sweep keeps what a longer board
// could still use. Once only the longest is left, its own rules prune its last columns as a
// board counted alone does. With an odd number of rows, boards of the two parities of length
// balance the colours of their squares still to come differently (a column holds one more of
// one colour): while boards of both are left, a class passes that balances as either does
// (StepRule::either_parity), so one sweep serves them all.
struct ShorterBoards {
  std::vector<StepRules> rules;  // each board's, by length, the longest last
  // Called with i and rules[i]'s count as soon as it is counted, between two steps of the
  // sweep (on the calling thread): a journal keeps it before any later checkpoint, so a sweep
  // resumed past a board's last step need not count that board again.
  std::function<void(std::size_t, const BigCount&)> counted;
};

// The rules the sweep runs (of the longest board's length): at step k, the meet of the rules
// at step k of every board whose last step is later, and of the longest board's. The boards
// must serve one sweep (same width and target; the same colour balance of the squares still
// to come, which the caller's choice of lengths gives), or std::logic_error.
StepRules rules_for_every_board(const ShorterBoards& boards);

// What the sweep's steps aside counted: index i is rules[i]'s board; empty where the sweep
// did not run that step in this session (it started past it).
using ShorterCounts = std::vector<std::optional<BigCount>>;

}  // namespace knightstour
