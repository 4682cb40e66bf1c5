#include "knightstour/count/frontier_plan.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "count_jobs.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/memory_room.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/io/temp_directory.hpp"

namespace knightstour {

namespace {

// How an all-starts grid is counted: --grid, else KNIGHTSTOUR_GRID (for benchmarks and
// tests), else automatic (the engine chooses between the pass and the tails); a sharded
// count, by end pairs.
GridMethod grid_asked(const CountRequest& r) {
  GridMethod grid = GridMethod::automatic;
  if (r.grid) {
    grid = *r.grid;
  } else if (const char* env = std::getenv("KNIGHTSTOUR_GRID"); env != nullptr && *env != 0) {
    grid = parse_grid_method(env, "KNIGHTSTOUR_GRID");
  }
  if (r.sharded() && grid == GridMethod::automatic) grid = GridMethod::end_pairs;
  return grid;
}

// The job a new count asks for.
FrontierRequest new_job(const CountRequest& r) {
  FrontierRequest f;
  f.shape = r.shape.value();
  f.closed = r.closed.value_or(false);
  if (!r.all_starts.value_or(false)) f.start = r.prefix.at(0);
  f.end = r.end;
  f.total_only = r.total_only;
  f.every_length = r.every_length;
  f.open_sweeps_only = r.open_sweeps_only;
  f.grid = grid_asked(r);
  if (r.grid && (f.closed || f.start || f.total_only)) {
    throw UsageError(
        "$grid is how an open count over all starts gets its tours from each "
        "square; leave it out");
  }
  if (r.sharded()) {
    if (f.grid != GridMethod::end_pairs) {
      // Say where the other grid came from: the option, or the environment.
      throw UsageError(r.grid ? "a frontier count is shared out by its units of end pairs; with "
                                "$shard_count leave out $grid or give $grid end-pairs"
                              : "a frontier count is shared out by its units of end pairs; with "
                                "$shard_count unset KNIGHTSTOUR_GRID or set it to end-pairs");
    }
    if (f.total_only) {
      throw UsageError(
          "$total_only with $shard_count: the frontier method's shards are units of end "
          "pairs, which count the tours from each square anyway; leave out $total_only");
    }
    if (f.closed || f.start) {
      throw UsageError(
          "a frontier count is shared out only when it counts open tours over "
          "all starts (by units of end pairs); leave out $shard_count");
    }
    f.shard = {r.shard->index, r.shard->count};
  }
  if (r.modulus || r.residue_unit) {
    const char* flag = r.modulus ? "$modulus" : "$residue_unit";
    // Its units are its primes, not end pairs.
    if (r.sharded()) {
      throw UsageError(std::string(flag) +
                       " counts a unit of its own (one prime); leave out $shard_count");
    }
    if (r.modulus && r.residue_unit) {
      throw UsageError("$modulus and $residue_unit both pick the prime; give one");
    }
    f.modulus = r.modulus ? *r.modulus : count_detail::residue_unit_prime(f, *r.residue_unit);
  }
  return f;
}

// The address space the threads of a count of `threads` reserve for their stacks: oneTBB's
// workers, and the progress and memory-sampling threads at the default size.
std::uint64_t thread_stacks(int threads) {
  pthread_attr_t attr;
  std::size_t plain = 8u << 20;
  if (::pthread_attr_init(&attr) == 0) {
    ::pthread_attr_getstacksize(&attr, &plain);
    ::pthread_attr_destroy(&attr);
  }
  const std::size_t worker =
      tbb::global_control::active_value(tbb::global_control::thread_stack_size);
  return static_cast<std::uint64_t>(std::max(threads - 1, 0)) * worker + 2 * plain;
}

// The budget counts class bytes; by default half of what is available, shared by the ranks
// on this node. With several ranks --memory is each rank's.
MemoryPlan memory_plan(const CountRequest& r, const Ranks* ranks, int threads) {
  MemoryPlan m;
  MemorySources sources;
  sources.reserve = m.thread_stacks = thread_stacks(threads);
  const MemoryRoom room = memory_room(sources);
  if (!room.ignored.empty()) spdlog::warn("{}", room.ignored);
  m.known = room.known();
  m.available = room.bytes;
  m.bound = room.bound;
  m.sharing = ranks ? static_cast<std::uint64_t>(ranks->ranks_on_this_node()) : 1;
  m.asked = r.memory_budget.has_value();
  if (r.memory_budget) {
    m.memory_budget = *r.memory_budget;
  } else if (m.known) {
    m.memory_budget = m.available / 2 / m.sharing;
    if (m.memory_budget == 0) {
      throw UsageError(m.bound + " leaves no memory for the classes (" + size_text(m.available) +
                       " after what the process and its threads hold): give $memory_budget SIZE, "
                       "or run where more memory is allowed");
    }
  } else {
    m.memory_budget = (4ull << 30) / m.sharing;
  }
  return m;
}

// Spilled classes go into the run directory when there is one (the user chose a disk for
// it, and a session killed outright leaves them where the next one clears them).
SpillPlan spill_plan(const CountRequest& r, bool run_dir) {
  const std::string asked = r.spill_dir.value_or("");
  SpillPlan s;
  if (asked == "none") {
    s.to = SpillTo::nowhere;
  } else if (asked.empty() && run_dir) {
    s.to = SpillTo::run_directory;
  } else {
    s.to = SpillTo::folder;
    s.named = !asked.empty();
    s.parent = s.named ? std::filesystem::path(asked) : default_temp_parent();
  }
  return s;
}

std::string unit_text(BoardShape shape, int id) {
  const EndPairUnit u = end_pair_units(shape).at(static_cast<std::size_t>(id));
  auto name = [&](std::int64_t q) {
    return square_name(static_cast<int>(q / shape.cols), static_cast<int>(q % shape.cols));
  };
  return "unit " + std::to_string(id) + ", open tours " + name(u.start) + "-" + name(u.end) +
         " and the " + std::to_string(u.pairs.size()) + " pairs of its orbit";
}

}  // namespace

FrontierPlan plan_frontier(const CountRequest& r, const MethodChoice& method,
                           const FrontierManifest* resumed) {
  FrontierPlan p;
  if (resumed != nullptr) {
    p.request = FrontierRunDir::request_of(*resumed);
    // The tails or the pass is each session's choice; units of end pairs are the run's.
    if (p.request.grid != GridMethod::end_pairs) p.request.grid = grid_asked(r);
  } else {
    p.request = new_job(r);
  }
  validate(p.request);
  p.method = method;
  const Ranks* ranks = several_ranks(r.ranks);
  // Said before a run directory is made for the ranks (count_over_ranks), which would else be
  // left behind by the engine's own refusal.
  if (ranks != nullptr && p.request.every_length) {
    throw UsageError("$every_length runs in one process for now, not over MPI ranks");
  }
  if (ranks != nullptr && p.request.modulus != 0) {
    throw UsageError("a count modulo a prime runs in one process for now, not over MPI ranks");
  }
  p.threads = r.threads > 0 ? r.threads : default_threads();
  p.memory = memory_plan(r, ranks, p.threads);
  p.spill = spill_plan(r, r.run_dir.has_value());
  p.kernel = chosen_bit_kernel();
  p.progress_seconds = ranks && ranks->rank() != 0 ? 0 : r.progress_seconds;
  // A resumed run keeps the interval it was started with unless the command line gives one.
  const double recorded = resumed != nullptr ? resumed->frontier.checkpoint_seconds : -1;
  p.checkpoint_seconds =
      r.checkpoint_seconds.value_or(recorded >= 0 ? recorded : kDefaultCheckpointSeconds);
  p.sweeps = planned_sweeps(p.request, p.request.grid == GridMethod::backward_pass);
  if (p.request.grid == GridMethod::end_pairs) {
    for (int k = 0; k < p.sweeps; ++k) {
      if (unit_in_shard(k, p.request.shard)) p.shard_units.push_back(k);
    }
  }
  return p;
}

std::vector<std::string> describe(const FrontierPlan& p) {
  std::vector<std::string> lines;
  const MemoryPlan& m = p.memory;
  std::string memory = "budget     " + size_text(m.memory_budget) + " for the classes";
  if (m.asked) {
    memory += " ($memory_budget)";
    if (m.past_available())
      memory += ", more than the " + size_text(m.available / m.sharing) + " available now";
  } else if (m.known) {
    memory += ": half of the " + size_text(m.available) + " that " + m.bound + " leaves" +
              (m.sharing > 1 ? ", shared by the ranks on this node" : "");
  } else {
    memory += " (nothing is known of the memory available)";
  }
  lines.push_back(memory);
  switch (p.spill.to) {
    case SpillTo::nowhere:
      lines.emplace_back("spill      nowhere ($spill_dir none): the count stops at the budget");
      break;
    case SpillTo::run_directory:
      lines.emplace_back("spill      past the budget, to spill/ in the run directory");
      break;
    case SpillTo::folder:
      lines.push_back("spill      past the budget, to a folder made in " + p.spill.parent.string() +
                      (p.spill.named ? " ($spill_dir)" : ""));
      break;
  }
  const FrontierRequest& f = p.request;
  std::string sweeps = "sweeps     " + std::to_string(p.sweeps);
  const bool grid = !f.closed && !f.start && !f.total_only;
  if (grid && f.grid == GridMethod::automatic) {
    sweeps += " by pinned tails or " + std::to_string(planned_sweeps(f, true)) +
              " by a pass back over one sweep, whichever pays on this board";
  } else if (grid && f.grid == GridMethod::pinned_tails) {
    sweeps += ": a shared prefix and a pinned sweep per class of start squares";
  } else if (grid && f.grid == GridMethod::backward_pass) {
    sweeps += ": the closed one, one unpinned and a pass back over it";
  } else if (f.grid == GridMethod::end_pairs) {
    sweeps += " units of end pairs";
    if (f.sharded()) {
      sweeps += "; shard " + std::to_string(f.shard.index) + " of " +
                std::to_string(f.shard.count) + " counts " + std::to_string(p.shard_units.size()) +
                " (unit k to shard k mod " + std::to_string(f.shard.count) + ")";
    }
    // One unit a shard is how units run on a cluster: say which pair its sweep pins.
    if (p.shard_units.size() == 1) sweeps += ": " + unit_text(f.shape, p.shard_units.front());
  }
  lines.push_back(sweeps);
  lines.push_back("kernel     " + std::string(bit_kernel_name(p.kernel)) + " on " +
                  std::to_string(p.threads) + " threads");
  return lines;
}

namespace count_detail {

std::uint64_t residue_unit_prime(const FrontierRequest& f, int unit) {
  const std::vector<std::uint64_t> primes = residue_primes(f);
  const auto units = static_cast<int>(primes.size());
  if (unit < 0 || unit >= units) {
    throw UsageError("$residue_unit " + std::to_string(unit) + ": this count has " +
                     std::to_string(units) + " residue units, 0 to " + std::to_string(units - 1) +
                     " (the last one the spare)");
  }
  return primes[static_cast<std::size_t>(unit)];
}

}  // namespace count_detail

}  // namespace knightstour
