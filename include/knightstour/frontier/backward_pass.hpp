#pragma once

// The open tours from every square by one unpinned sweep and a pass back over it.
//
// The unpinned open sweep (T takes a path's two ends anywhere: --total-only) counts every
// Hamiltonian path once. Keep its generations; then, from the last step to the first, give
// every class X its completions c(X): the sum of c(Y) over its successors Y, looked up in
// the next generation (at the last step, 1 for each cycle it closes). Square k's edges are
// all chosen at step k, T among them, so a successor Y that gives T an edge at step k makes
// square k an end of n(X) c(Y) paths, n(X) being X's count. Summed per square, those are the
// paths with an end there: the directed open tours from it. The last square's are what the
// others leave of twice the paths (its edges close the cycle through T, which emits no
// successor).
//
// With the mirror fold (mirror.hpp) a class stands for partial paths and their images
// across the sweep, so the sums come per pair of squares mirrored across; the board's
// symmetry makes both squares of a pair equal.
//
// Why: pinned tails (frontier_job.cpp) cost one sweep from each class of start squares to the
// end, about n^2 column steps on an n-long board; this costs two passes over one sweep, about
// n. A backward class costs more than a forward one (a lookup per successor, where the
// forward step aggregates a cache-sized partition), so on boards with few classes of starts
// the tails win (results/frontier/backward-pass-2026-11-27.md).
//
// Invariants checked (std::logic_error when broken): sum of n(X) c(X) over the first
// generation is the sweep's count of paths; no product or sum overflows the width of twice
// the paths (each product counts distinct paths).

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/frontier_counter.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// A sweep's generations, copied as it runs (its after_step hook; the first one from the
// state it starts from), while they take at most `limit` bytes and none is spilled. Past
// that it drops them all and keeps nothing more (keep() says false): the caller stops the
// sweep and falls back to pinned tails.
class KeptGenerations {
 public:
  explicit KeptGenerations(std::uint64_t limit) : limit_(limit) {}
  bool keep(const FrontierState& state);
  // Every generation of a finished sweep of `steps` steps is held (generation k: the
  // classes step k expands).
  bool whole(int steps) const { return !gave_up_ && static_cast<int>(kept_.size()) == steps; }
  bool gave_up() const { return gave_up_; }
  std::uint64_t bytes() const { return bytes_; }
  const AnyGeneration& at(int step) const { return kept_[static_cast<std::size_t>(step)]; }

 private:
  std::uint64_t limit_;
  std::uint64_t bytes_ = 0;
  bool gave_up_ = false;
  std::vector<AnyGeneration> kept_;
};

// How far the pass is, for progress lines (written by the pass after each generation).
struct BackwardProgress {
  std::atomic<int> steps_total{0};               // generations, set at the start
  std::atomic<int> steps_done{0};                // generations done, counting back
  std::atomic<std::uint64_t> classes_done{0};    // their classes
  std::atomic<std::uint64_t> classes_total{0};   // of all generations, set at the start
};

struct BackwardPassResult {
  std::vector<BigCount> tours_by_square;  // board squares (r * cols + c); empty when stopped
  std::uint64_t expanded = 0;             // classes expanded by the pass
};

// The directed open tours from every board square, from the kept generations of the
// unpinned open sweep of `sweep` (FrontierTarget{false, nullopt}, folded as `fold_mirror`
// says) that counted `paths` paths; `progress`, when given, follows it. Stops between chunks of classes on `stop` (the result's
// tours_by_square is then empty).
BackwardPassResult tours_from_every_square(const Sweep& sweep, bool fold_mirror,
                                           const KeptGenerations& kept, const BigCount& paths,
                                           StopControl& stop,
                                           BackwardProgress* progress = nullptr);

}  // namespace knightstour
