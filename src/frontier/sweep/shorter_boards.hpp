#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// The shorter boards a sweep passes on its way (a row of every length, row_sweeps.hpp): the
// same width, n columns instead of the sweep's own. Each is counted by its last step, run
// aside on the sweep's generation before step nW - 1 with the shorter board's rule for that
// step; the sweep then goes on with its own rules, and ends once the last (longest) of them
// is counted: its own count is not taken.
//
// Why that counts a shorter board exactly: the steps before are the same moves on the same
// squares, and there the longer board's pruning rules must never be stricter than the
// shorter board's. A processed square has at least as many unprocessed neighbours when the
// board goes on, so its rules (no_future, one_future) are weaker. The colour balance of the
// squares still to come is the same when the columns between the two lengths hold as many
// squares of each colour (the caller's choice of lengths). But a square beyond the shorter
// board's end, which the shorter board lacks, is looked at (StepRule::looks) when it has
// fewer than two unprocessed neighbours, that is within two columns of the longer board's
// end: so the sweep's board is 4 columns longer than the longest board it counts (the looks
// of a step reach 2W + 1 squares ahead, at most a column past the shorter board's end).
// Then the generation holds every class the shorter board's sweep would hold, with the same
// counts, and some more that its last step rejects: a class it counts is a cycle through
// every square of the shorter board (and T, for paths) and nothing else.
struct ShorterBoards {
  std::vector<StepRules> rules;  // each a shorter board's, by length, at least one
  // Called with i and rules[i]'s count as soon as it is counted, between two steps of the
  // sweep (on the calling thread): a journal keeps it before any later checkpoint, so a sweep
  // resumed past a board's last step need not count that board again.
  std::function<void(std::size_t, const BigCount&)> counted;
};

// The columns a sweep that counts boards of up to `length` columns on its way sweeps.
inline constexpr int kColumnsPastShorterBoards = 4;

// What the sweep's steps aside counted: index i is rules[i]'s board; empty where the sweep
// did not run that step in this session (it started past it).
using ShorterCounts = std::vector<std::optional<BigCount>>;

}  // namespace knightstour
