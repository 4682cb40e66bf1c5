#pragma once

// The open tours from every square by one unpinned sweep and a pass back over it.
//
// The unpinned open sweep (T takes a path's two ends anywhere: --total-only) counts every
// Hamiltonian path once. Keep its generations; then, from the last step back to the board's
// middle column, give every class X its completions c(X): the sum of c(Y) over its
// successors Y, looked up in the next generation (at the last step, 1 for each cycle it
// closes). Square k's edges are all chosen at step k, T among them, so a successor Y that
// gives T an edge at step k makes square k an end of n(X) c(Y) paths, n(X) being X's count.
// Summed per square, those are the paths with an end there: the directed open tours from
// it. The squares before the middle column have the counts of their images under the
// board's half turn (pass_last_step). The last square's are what the others leave of twice
// the paths (its edges close the cycle through T, which emits no successor), and so are the
// first's, its image.
//
// With the mirror fold (mirror.hpp) a class stands for partial paths and their images
// across the sweep, so the sums come per pair of squares mirrored across; the board's
// symmetry makes both squares of a pair equal.
//
// Why: pinned tails (pinned_tails.hpp) cost one sweep from each class of start squares to the
// end, about n^2 column steps on an n-long board; this costs two passes over one sweep, about
// n. A backward class costs more than a forward one (a lookup per successor, where the
// forward step aggregates a cache-sized partition), so on boards with few classes of starts
// the tails win (docs/speed.md (backward-pass.md)).
//
// Invariants checked (std::logic_error when broken): sum of n(X) c(X) over the generation
// the pass ends with is the sweep's count of paths (every path splits there into its part so
// far and its completion); what the half turn leaves to the first and last squares is even;
// no product or sum overflows the width of twice the paths (each product counts distinct
// paths).

#include <cstdint>
#include <optional>
#include <vector>

#include "frontier/grid/kept_generations.hpp"
#include "frontier/progress/pass_progress.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// The generation the pass back ends with: the first of the column that holds the board's
// middle square (0 on a board of one column). A rectangle is its own image under a half
// turn, which takes sweep vertex v to n - 1 - v, so the tours from a square before it are
// those from its image, which the pass reaches first; the pass needs no generation before it.
int pass_last_step(const Sweep& sweep);

struct BackwardPassResult {
  std::vector<BigCount> tours_by_square;  // board squares (r * cols + c); empty when stopped
  std::uint64_t expanded = 0;             // classes expanded by the pass
  int threads = 0;                        // threads that expanded classes (<= options.threads)
};

// Bytes the pass holds besides the kept generations, at most, when the sweep's largest
// generation had `peak_classes` classes: two completion tables of it (at most half full), its
// classes' completions in a row, and,
// when only the columns' first generations are kept, a column's others recomputed (the
// recomputing sweep's own memory is the forward options' budget, apart).
std::uint64_t pass_scratch_bytes(const Sweep& sweep, const KeptGenerations& kept,
                                 std::uint64_t peak_classes, const BigCount& paths);

// The directed open tours from every board square, from the kept generations of the
// unpinned open sweep of `sweep` (FrontierTarget{false, nullopt}, run with `forward`'s
// options, folded as they say) that counted `paths` paths; the generations not kept are
// recomputed with those options. `progress`, when given, follows it. Stops between chunks of
// classes on `stop` (the result's tours_by_square is then empty).
BackwardPassResult tours_from_every_square(const Sweep& sweep, const FrontierOptions& forward,
                                           const KeptGenerations& kept, const BigCount& paths,
                                           StopControl& stop, BackwardProgress* progress = nullptr);

}  // namespace knightstour
