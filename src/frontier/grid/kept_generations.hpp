#pragma once

#include <cstdint>
#include <vector>

#include "frontier/sweep/frontier_counter.hpp"

namespace knightstour {

// A sweep's generations, copied as it runs (its after_step hook; the first one from the
// state it starts from), while they take at most `limit` bytes and none is spilled.
// Generation k is the classes step k expands. When all of them would pass the limit it keeps
// only each column's first (k a multiple of `width`), from which the pass recomputes the
// rest of a column when it gets there: W times less memory for one more forward sweep. When
// even those pass it, it drops them all and keeps nothing more (keep() says false): the
// caller stops the sweep and falls back to pinned tails.
class KeptGenerations {
 public:
  // Generations before `from` (a column's first) are not held: pass_last_step().
  KeptGenerations(std::uint64_t limit, int width, int from = 0)
      : limit_(limit), width_(width), from_(from) {}
  bool keep(const FrontierState& state);
  // A finished sweep of `steps` steps is held: every generation, or every column's first.
  bool whole(int steps) const { return !gave_up_ && static_cast<int>(held_.size()) == steps; }
  bool gave_up() const { return gave_up_; }
  // It gave up because a generation came in spill files (the sweep's own share of the
  // budget was too small), not because the generations outgrew their limit.
  bool spilled() const { return spilled_; }
  bool columns_only() const { return columns_only_; }
  int width() const { return width_; }
  std::uint64_t bytes() const { return bytes_; }
  int limbs() const { return limbs_; }  // of the widest generation seen, held or not
  bool has(int step) const { return held_[static_cast<std::size_t>(step)] != 0; }
  const AnyGeneration& at(int step) const { return kept_[static_cast<std::size_t>(step)]; }

 private:
  bool column_start(int step) const { return step % width_ == 0; }
  std::uint64_t limit_;
  int width_;
  int from_;
  std::uint64_t bytes_ = 0;
  bool gave_up_ = false;
  bool spilled_ = false;
  bool columns_only_ = false;
  int limbs_ = 1;
  std::vector<AnyGeneration> kept_;  // by step; empty where not held
  std::vector<char> held_;
};

}  // namespace knightstour
