#pragma once

// Where a step's classes go once it spills: the generation it expands to files at once (the
// budget that generation held is then the step's), and each range of the generation it
// builds to files as soon as the range is built; or, in a sliced step, the generation it
// expands set aside a slice at a time, once expanded (set_aside).

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "frontier/store/generation.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/store/memory_budget.hpp"
#include "frontier/store/spill.hpp"

namespace knightstour::frontier_detail {

class StepSpill {
 public:
  StepSpill(SpillArea& area, MemoryBudget& budget) : area_(area), budget_(budget) {}

  bool started() const { return started_; }

  // Writes every part of `current` held in memory to files (their budget is freed at once),
  // and every part of `next` built so far; from here on spill() takes each built range.
  template <int K>
  void start(Generation<K>& current, Generation<K>& next) {
    if (started_) return;
    end_aside(current);  // first: parts set aside but not yet in their files hold no bytes
    started_ = true;
    set_aside(current, 0, current.parts.size());
    end_aside(current);
    outs_ = make_spillers();
    spill_slices(outs_, next, 0, next.parts.size());
  }
  // Writes the built parts [lo, hi) of `next` (once started).
  template <int K>
  void spill(Generation<K>& next, std::size_t lo, std::size_t hi) {
    spill_slices(outs_, next, lo, hi);
  }
  // Points the parts of `next` written since start() into their files (once every range is
  // built).
  template <int K>
  void finish(Generation<K>& next) {
    for (auto& s : outs_) s->finish(next);
  }

  // Writes the in-memory parts [lo, hi) of `current`, expanded already, to files and frees
  // their budget at once (a sliced step setting its current generation aside, step_plan.hpp's
  // aside_need). Until end_aside the parts set aside are neither in memory nor readable: one
  // set of files a step, not one a slice, keeps the files a step holds open to kFiles.
  template <int K>
  void set_aside(Generation<K>& current, std::size_t lo, std::size_t hi) {
    if (aside_.empty()) aside_ = make_spillers();
    spill_slices(aside_, current, lo, hi);
  }
  // Points the parts set aside into their files; start() does it first.
  template <int K>
  void end_aside(Generation<K>& current) {
    for (auto& s : aside_) s->finish(current);
    aside_.clear();
  }

 private:
  // Spill files written side by side, one a thread up to kFiles: buffered writes to one file
  // take its inode's lock, so threads writing the same file would wait for each other.
  // Writing a range's parts from one thread left the others idle: 11% of the 8x8 closed
  // count's wall time on 2 cores (docs/speed.md (parallel-spill.md)).
  static constexpr std::size_t kFiles = 16;
  using Spillers = std::vector<std::unique_ptr<PartSpiller>>;

  Spillers make_spillers() {
    const auto threads = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
    Spillers spillers;
    for (std::size_t i = 0; i < std::clamp<std::size_t>(threads, 1, kFiles); ++i)
      spillers.push_back(std::make_unique<PartSpiller>(area_));
    return spillers;
  }
  // Moves the in-memory parts [lo, hi) of g to the spillers' files, spiller i taking the
  // i-th slice of the range, all at once.
  template <int K>
  void spill_slices(Spillers& spillers, Generation<K>& g, std::size_t lo, std::size_t hi) {
    const std::size_t n = spillers.size();
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
      for (std::size_t p = lo + (hi - lo) * i / n; p < lo + (hi - lo) * (i + 1) / n; ++p)
        spillers[i]->add(g.parts[p], p, budget_);
    });
  }

  SpillArea& area_;
  MemoryBudget& budget_;
  bool started_ = false;
  Spillers outs_;   // where built parts of the next generation go
  Spillers aside_;  // where parts of the current generation set aside go (set_aside)
};

}  // namespace knightstour::frontier_detail
