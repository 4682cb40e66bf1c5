#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "count_jobs.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/process_memory.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "knightstour/frontier_run/ranked_journal.hpp"
#include "knightstour/io/temp_directory.hpp"

namespace knightstour::count_detail {

namespace fs = std::filesystem;

namespace {

// The spill folders a count makes in --spill-dir (or the temp directory): prefix + 6 characters.
constexpr const char* kSpillPrefix = "knightstour-spill-";

// The limbs (a power of two, at least `limbs`: what the sweeps needed) that hold every count
// printed: a job's sums outgrow its sweeps' counts (3x40 by units of end pairs).
int limbs_holding(const CountResult& r, int limbs) {
  while (limbs < r.tours.limbs_used() || limbs < r.closed_tours.limbs_used()) limbs *= 2;
  return limbs;
}

CountResult frontier_result(const FrontierRequest& f, const MethodChoice& choice) {
  CountResult res;
  res.shape = f.shape;
  res.all_starts = !f.start;
  res.total_only = f.total_only;
  if (f.start) res.prefix = {*f.start};
  res.end = f.end;
  res.sharded = f.sharded();
  res.closed = f.closed;
  res.modulus = f.modulus;
  res.method = Method::frontier;
  res.why = choice.why;
  return res;
}

void fill_counts(CountResult& res, const FrontierReport& rep) {
  res.complete = rep.complete;
  res.counts = rep.complete ? CountResult::Counts::exact : CountResult::Counts::none;
  res.stop_reason = rep.complete ? StopReason::none : rep.stop_reason;
  if (!rep.complete) return;
  res.tours = rep.tours;
  res.closed_tours = rep.closed_tours;
  res.closed_cycles = rep.cycles;
  res.tours_by_start = rep.tours_by_start;
  res.closed_by_start = rep.closed_by_start;
  res.tours_by_start_end = rep.tours_by_start_end;
  res.by_length = rep.by_length;
  if (res.end) res.closed_cycles.reset();      // a count between two squares runs no closed sweep
  if (res.sharded) res.closed_cycles.reset();  // a shard's share holds parts of cycles
}

// The budget, said once at the start of a count: how it was chosen, and a warning when it is
// past the memory there is.
void say_how_memory_is_budgeted(const MemoryPlan& memory_plan) {
  if (!memory_plan.asked && !memory_plan.known) {
    spdlog::debug("memory budget {}: nothing is known of the memory available",
                  size_text(memory_plan.memory_budget));
  } else if (!memory_plan.asked) {
    spdlog::debug("memory budget {}: half of the {} that {} leaves{}{}",
                  size_text(memory_plan.memory_budget), size_text(memory_plan.available),
                  memory_plan.bound,
                  memory_plan.thread_stacks > 0 && memory_plan.bound.rfind("RLIMIT", 0) == 0
                      ? " after " + size_text(memory_plan.thread_stacks) + " of thread stacks"
                      : std::string(),
                  memory_plan.sharing > 1 ? ", shared by the ranks on this node" : "");
  }
  // The budget is what keeps the run from the OOM killer: one past the memory there is
  // would let the classes grow until the system kills the process instead of spilling.
  if (memory_plan.past_available()) {
    spdlog::warn(
        "$memory_budget {} is more than the {} this {} has available now: the classes may outgrow "
        "memory before the count spills, and the system may kill it (about half of what is "
        "available, the default, leaves room for the rest of the process)",
        size_text(memory_plan.memory_budget),
        size_text(memory_plan.available / memory_plan.sharing),
        memory_plan.sharing > 1 ? "rank's share of the node" : "machine");
  }
}

// Where a count's classes go past its budget.
struct SpillPlace {
  std::string dir;                    // empty: nowhere
  std::optional<TempDirectory> temp;  // a folder of this count's own, removed with it
  std::string off;                    // why spilling is off although it was not asked off
};

// `out` is filled in place: the folder, held by a lock, cannot move.
void place_spill(const FrontierPlan& plan, std::optional<FrontierRunDir>& run, SpillPlace& out) {
  switch (plan.spill.to) {
    case SpillTo::nowhere:
      break;
    case SpillTo::run_directory:
      out.dir = run.value().fresh_spill_dir();
      break;
    case SpillTo::folder:
      // The user did not name the default place, and a count that fits its budget needs no
      // disk: where no folder can be made there, spilling is turned off (said now, and again
      // if the budget stops the count) instead of the count ending at once. A --spill-dir
      // that cannot be used is an error.
      try {
        // Folders of counts killed outright (one a rank) go first, unless a live count holds them.
        for (const auto& name :
             TempDirectory::remove_left_behind(plan.spill.parent, kSpillPrefix)) {
          spdlog::info("removed {}, left behind by a count that was killed", name);
        }
        out.temp.emplace(plan.spill.parent, kSpillPrefix, TempDirectory::Lock::held);
        out.dir = out.temp->path();
      } catch (const IoError& e) {
        if (plan.spill.named) throw;
        out.off = e.what();
        spdlog::warn(
            "{}; classes past the memory budget cannot go to disk there, so the count stops at "
            "the budget if it needs more ($spill_dir DIR puts them elsewhere)",
            out.off);
      }
      break;
  }
}

}  // namespace

CountResult count_frontier(const CountRequest& r, const FrontierPlan& plan,
                           std::optional<FrontierRunDir> run) {
  const FrontierRequest& f = plan.request;
  const auto started = std::chrono::steady_clock::now();
  const double cpu_before = process_cpu_seconds();

  if (f.every_length && f.shape.rows <= 2) {
    spdlog::info(
        "a board of 1 or 2 rows has no knight's tour of any length (its knight graph is not "
        "connected; one square is a tour by itself): every count is known without a sweep");
  } else if (std::min(f.shape.rows, f.shape.cols) <= 2 && f.shape.squares() > 1) {
    spdlog::info(
        "a board with a side of 1 or 2 has no knight's tour (its knight graph is not connected): "
        "every count is 0, known without a sweep; the sweep confirms it");
  }
  FrontierOptions options;
  options.threads = plan.threads;
  options.kernel = plan.kernel;
  options.fold_mirror = r.mirror_fold;
  Ranks* ranks = several_ranks(r.ranks);
  options.ranks = ranks;
  options.memory_budget = plan.memory.memory_budget;
  say_how_memory_is_budgeted(plan.memory);
  options.progress_seconds = plan.progress_seconds;
  SpillPlace spill;
  place_spill(plan, run, spill);
  options.spill_dir = spill.dir;
  StopControl stop(r.caps);
  AnonymousMemoryPeak memory;
  std::optional<RankedJournal> ranked;
  FrontierJournal* journal = run ? &*run : nullptr;
  if (run && ranks) journal = &ranked.emplace(*run, *ranks);
  const FrontierReport rep = count_by_frontier(f, options, stop, journal);

  CountResult res = frontier_result(f, plan.method);
  fill_counts(res, rep);
  res.threads = options.threads;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  res.cpu_seconds = process_cpu_seconds() - cpu_before;
  std::uint64_t peak_anonymous = memory.peak();
  if (ranks) {
    res.cpu_seconds =
        static_cast<double>(ranks->sum(static_cast<std::uint64_t>(res.cpu_seconds * 1e6))) / 1e6;
    peak_anonymous = ranks->max(peak_anonymous);
  }
  FrontierStatistics st;
  static_cast<SweepFigures&>(st) = rep;  // the sweeps' figures as the engine reported them
  st.limbs = limbs_holding(res, st.limbs);
  if (f.grid == GridMethod::end_pairs) {
    st.grid_method = GridMethod::end_pairs;
    st.shard = f.shard;
  } else if (!f.closed && !f.start && !f.total_only) {
    st.grid_method =
        rep.grid_by_backward_pass ? GridMethod::backward_pass : GridMethod::pinned_tails;
  }
  st.peak_anonymous_bytes = peak_anonymous;
  st.anonymous_sample_seconds = memory.interval_seconds();
  st.ranks = ranks ? ranks->size() : 1;
  st.bit_kernel = std::string(bit_kernel_name(plan.kernel));
  st.mirror_fold = options.fold_mirror;
  st.memory_budget = options.memory_budget;
  st.budget_asked = plan.memory.asked;
  st.spills = !options.spill_dir.empty();
  st.spill_off = spill.off;
  st.stopped_sweep_classes_left = rep.stopped_outlook.classes_left;
  st.stopped_sweep = rep.stopped_sweep;
  st.stopped_sweep_steps = rep.stopped_sweep_steps;
  st.kept_step = rep.kept_step;
  if (rep.expanded > 0)
    st.seconds_per_class = rep.steps_seconds / static_cast<double>(rep.expanded);
  res.statistics = st;
  if (run) {
    run->end_session(rep, options.threads, res.seconds, res.cpu_seconds);
    run->remove_spill_dir();
    res.run_dir = run->dir();
  }
  return res;
}

CountResult finished_frontier(const fs::path& dir, const FrontierManifest& m,
                              const FrontierRequest& f, const MethodChoice& choice) {
  CountResult res = frontier_result(f, choice);
  res.complete = true;
  res.counts = CountResult::Counts::exact;
  res.tours = BigCount::parse(m.frontier.tours);
  res.closed_tours = BigCount::parse(m.frontier.closed_tours);
  res.closed_cycles = BigCount::parse(m.frontier.closed_cycles);
  std::map<int, BigCount> by_unit;  // units of end pairs, or a row's lengths
  for (const auto& [unit, count] : m.frontier.finished) by_unit[unit] = BigCount::parse(count);
  if (f.grid == GridMethod::end_pairs) {
    EndPairCounts c = end_pair_counts(f.shape, end_pair_units(f.shape), by_unit, f.shard.index);
    res.tours_by_start = std::move(c.tours_by_start);
    res.closed_by_start = std::move(c.closed_by_start);
    res.tours_by_start_end = std::move(c.tours_by_start_end);
    if (res.sharded) res.closed_cycles.reset();  // a shard's share holds parts of cycles
  } else if (f.every_length) {
    res.by_length = row_of_units(f, by_unit);
  } else if (res.all_starts && !res.total_only) {
    for (const auto& c : m.frontier.tours_by_start)
      res.tours_by_start.push_back(BigCount::parse(c));
    res.closed_by_start.assign(res.tours_by_start.size(), *res.closed_cycles * 2);
  }
  if (res.modulus != 0) {  // what was derived from a residue unit's counts, taken modulo it
    for (BigCount& c : res.closed_by_start) c = residue(c, res.modulus);
    for (LengthCounts& l : res.by_length) {
      for (BigCount* c : {&l.tours, &l.closed_tours, &l.cycles}) *c = residue(*c, res.modulus);
    }
  }
  res.threads = m.threads;
  res.seconds = 0;  // nothing ran: the run's own time is in its manifest
  res.run_dir = dir;
  FrontierStatistics st;
  if (f.grid == GridMethod::end_pairs) {
    st.grid_method = GridMethod::end_pairs;
    st.shard = f.shard;
  }
  st.width = f.every_length ? f.shape.rows : Sweep(f.shape).width();
  st.limbs = limbs_holding(res, 1);
  st.sweeps_planned = m.frontier.sweeps_planned;
  st.sweeps_finished = static_cast<int>(m.frontier.finished.size());
  st.sweeps_resumed = st.sweeps_finished;
  res.statistics = st;
  return res;
}

}  // namespace knightstour::count_detail
