#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour {

// Where a sweep stands between two steps (frontier_counter.hpp): handed on by reference here,
// so that a caller never needs the classes' types.
struct FrontierState;
class SweepWatch;      // progress/sweep_watch.hpp
class IdleChunks;      // store/memory_budget.hpp
struct ShorterBoards;  // sweep/shorter_boards.hpp

// How a sweep runs: threads, memory, spill, progress, ranks and kernel.
struct FrontierOptions {
  int threads = 1;
  std::uint64_t memory_budget = ~std::uint64_t{0};  // bytes of classes
  // Where classes that do not fit the memory limit go (a directory that exists); empty:
  // nowhere, the sweep stops at the limit.
  std::filesystem::path spill_dir;
  // The job's progress line: its period (count_by_frontier draws it), and where a sweep
  // says how far it is (run_frontier reports there when it is set).
  double progress_seconds = 0;
  SweepWatch* watch = nullptr;
  std::string label;  // names the sweep in progress lines, e.g. "closed cycles"
  // Called after every completed step (not after the last) with the state of the sweep;
  // a checkpoint writer saves it when it is due. Runs on the calling thread.
  std::function<void(const FrontierState&)> after_step;
  // Steps to run before pausing (-1: to the end). A paused sweep returns its state (to fork
  // pinned sweeps from a shared prefix, frontier_job).
  int until_step = -1;
  // The processes counting this sweep together, each holding the classes it owns (nullptr:
  // this process alone). Every rank calls run_frontier with the same sweep and options.
  Ranks* ranks = nullptr;
  // Scratch chunks handed from one sweep of a job to the next (nullptr: each sweep maps its
  // own and unmaps them at its end).
  IdleChunks* idle_chunks = nullptr;
  // Keep the classes after a step that ends a column up to the mirror across (mirror.hpp):
  // the same counts from about 0.6 as many classes. Off only for tests that compare the two.
  bool fold_mirror = true;
  // Slices a step expands its generation in (step_plan.hpp, slices_for): 0, as the budget's
  // room asks; 1, never sliced; n, every step that can be sliced in n (tests that compare).
  std::size_t slices = 0;
  // Shorter boards the sweep passes, each counted by its last step run aside on the way
  // (shorter_boards.hpp; a row of every length); nullptr: none.
  const ShorterBoards* shorter = nullptr;
  // The kernel that packs and unpacks keys (bit_kernel.hpp), as the count's plan chose it;
  // unset: chosen_bit_kernel().
  std::optional<BitKernel> kernel;
  BitKernel bit_kernel() const { return kernel ? *kernel : chosen_bit_kernel(); }
};

}  // namespace knightstour
