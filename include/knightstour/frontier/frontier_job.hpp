#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/frontier/frontier_options.hpp"
#include "knightstour/frontier/frontier_report.hpp"
#include "knightstour/frontier/frontier_request.hpp"

namespace knightstour {

// Throws UsageError when the board is too wide for the frontier method, the start is off
// the board, open_sweeps_only is asked of a closed job, or KNIGHTSTOUR_BIT_KERNEL names no kernel
// this CPU runs (chosen_bit_kernel); a request that passes is one count_by_frontier takes.
void validate(const FrontierRequest& request);

// A job's residue units (FrontierRequest::modulus): the largest primes below 2^62, as many as
// its counts need to be recovered from their residues by the Chinese remainder theorem (their
// product passes the count bound, count_bound.hpp), then one more, the spare that checks them.
// Largest first; the same primes for the same job on every machine, whatever its modulus.
std::vector<std::uint64_t> residue_primes(const FrontierRequest& request);

// How many sweeps the job runs (closed: 1; open from a start: 2; open over all starts: 1
// plus one per class of start squares, or with `backward_pass` (chooses_backward_pass) 3,
// the pass counted as a sweep; open_sweeps_only: one fewer; by end pairs: one per unit, of
// every shard, sweep k being unit k; every length: one unit a length, below). The shared
// prefix of an all-starts job is saved as sweep number planned_sweeps() and never finishes.
int planned_sweeps(const FrontierRequest& request, bool backward_pass = false);

// A job of every length (request.every_length) journals lengths, not sweeps: unit n - 1 holds
// the closed cycles of rows x n, unit cols + n - 1 (open jobs) its paths, whichever sweep
// counted them. The sweeps across the rows that count several lengths on their way
// (row_sweeps.hpp) keep their checkpoints as sweeps planned_sweeps() + j, j below this.
int row_sweeps_across(const FrontierRequest& request);
// The boards a row's sweeps cost about as much as, for sizing it: the lengths counted each
// by a sweep of its own (those below the rows' count, from 3: a side of 1 or 2 has no tour
// and costs nothing), and the longest length of its sweep across the rows (none when every
// length is below the rows'), which counts the shorter lengths on its way for about what
// that board alone costs (results/rows/README.md). An open row's lengths are those of its
// open sweeps; each board's own open count runs its closed sweep too, as the row does.
struct RowBoards {
  std::vector<int> alone;
  std::optional<int> across;
};
RowBoards row_boards(const FrontierRequest& request);
// The row's counts by length from its units' counts (FormatError when one is missing).
std::vector<LengthCounts> row_of_units(const FrontierRequest& request,
                                       const std::map<int, BigCount>& units);

// Throws UsageError when the board is too wide for the frontier method or the start is off
// the board (validate()). options.label is extended per sweep for progress lines. With a journal,
// sweeps it has finished are not run again and a saved sweep continues where it was saved.
FrontierReport count_by_frontier(const FrontierRequest& request, const FrontierOptions& options,
                                 StopControl& stop, FrontierJournal* journal = nullptr);

}  // namespace knightstour
