#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/count/count_request.hpp"
#include "knightstour/count/method_choice.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"

namespace knightstour {

// The bytes a frontier count's classes may hold, and where that figure comes from.
struct MemoryPlan {
  std::uint64_t memory_budget = 0;  // bytes of classes (FrontierOptions::memory_budget)
  bool asked = false;               // --memory; else half of `available` (4 GiB when unknown)
  bool known = false;               // `available` was read from a bound (else nothing is known)
  std::uint64_t available = 0;      // what this process may still take now
  std::string bound;                // what bounds `available` (memory_room.hpp)
  std::uint64_t sharing = 1;        // ranks on this node, sharing `available`
  // Under an address-space limit: the stacks of the threads the count starts, taken off it.
  std::uint64_t thread_stacks = 0;
  // --memory past this process's (or rank's) share of what is available: the classes may
  // outgrow memory before the count spills, and the OOM killer end it.
  bool past_available() const { return asked && known && memory_budget > available / sharing; }
};

// Where classes past the budget go.
enum class SpillTo {
  nowhere,        // --spill-dir none (and every estimate): the count stops at the budget
  run_directory,  // spill/ in the run directory
  folder,         // a knightstour-spill-XXXXXX folder made in `SpillPlan::parent`
};
struct SpillPlan {
  SpillTo to = SpillTo::folder;
  std::filesystem::path parent;  // folder: --spill-dir, else $TMPDIR (or /tmp)
  // folder: given with --spill-dir, so a folder that cannot be made there is an error; in
  // the default place spilling is turned off instead (a count that fits needs no disk).
  bool named = false;
};

// A frontier count resolved once from its request, as plan.hpp does for the enumerator:
// what it counts and by which sweeps, its memory and where it spills, the bit kernel, the
// threads. run_count builds it and counts by it, read-only; estimate builds the same plan
// and prints it. Environment overrides (KNIGHTSTOUR_GRID, KNIGHTSTOUR_BIT_KERNEL) are read
// here, once.
struct FrontierPlan {
  FrontierRequest request;  // its grid as asked: --grid, else KNIGHTSTOUR_GRID, else shards'
  MethodChoice method;
  int threads = 1;
  MemoryPlan memory;
  SpillPlan spill;
  BitKernel kernel = BitKernel::portable;
  double progress_seconds = 0;    // 0 on every MPI rank but rank 0, which speaks for all
  double checkpoint_seconds = 0;  // with a run directory: how often classes are saved
  // Sweeps of the whole job (planned_sweeps; with an automatic grid, as if by pinned tails:
  // the engine may take the backward pass instead), and, by end pairs, the units (sweep k
  // is unit k) this shard counts.
  int sweeps = 0;
  std::vector<int> shard_units;
};

inline constexpr double kDefaultCheckpointSeconds = 600;

// The plan of `request`, a frontier count `method` chose. `resumed`: the manifest of the
// run directory it continues (whose job it counts, and whose checkpoint interval it keeps
// unless the request gives one); nullptr for a new count. Throws UsageError where the
// request is no frontier count (validate), KNIGHTSTOUR_GRID or KNIGHTSTOUR_BIT_KERNEL names
// nothing known, or --grid goes with a count that has no grid.
FrontierPlan plan_frontier(const CountRequest& request, const MethodChoice& method,
                           const FrontierManifest* resumed = nullptr);

// The plan in a few lines ("memory    ..."), for estimate and the log.
std::vector<std::string> describe(const FrontierPlan& plan);

}  // namespace knightstour
