#include "knightstour/count/run_count.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/memory_room.hpp"
#include "knightstour/base/process_memory.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/knight_geometry.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/frontier_plan.hpp"
#include "knightstour/count/frontier_run_dir.hpp"
#include "knightstour/count/frontier_run_files.hpp"
#include "knightstour/count/method_choice.hpp"
#include "knightstour/count/ranked_journal.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/end_pair_units.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/temp_directory.hpp"
#include "knightstour/run/job_runner.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

// The spill folders a count makes in --spill-dir (or the temp directory): prefix + 6 characters.
constexpr const char* kSpillPrefix = "knightstour-spill-";

std::vector<BigCount> big(const std::vector<std::uint64_t>& v) {
  std::vector<BigCount> out;
  out.reserve(v.size());
  for (auto x : v) out.emplace_back(x);
  return out;
}

// ---- the enumerator -------------------------------------------------------------------

// Whether `r` counts closed tours, when it resumes a run whose closed flag is `run_closed`:
// a command line that names the job (a board, a start or all starts) asks for open tours
// unless it says --closed, so that a resume with the job written out is checked against the
// run, never silently counted as the run says; a bare --resume takes the run's.
bool closed_asked(const CountRequest& r, std::optional<bool> run_closed) {
  if (r.closed) return *r.closed;
  const bool names_job = r.shape || !r.prefix.empty() || r.all_starts.value_or(false);
  return run_closed && !names_job ? *run_closed : false;
}

}  // namespace

Request dfs_request(const CountRequest& r, const RunManifest* resumed) {
  Request q = resumed ? resumed->request() : Request{};
  if (r.shape) q.board = Board(*r.shape);
  const int squares = q.board.squares();
  if (r.all_starts) q.all_starts = *r.all_starts;
  if (!r.prefix.empty()) {
    q.all_starts = false;
    q.prefix.clear();
    for (auto s : r.prefix) {
      if (s < 0 || s >= squares) throw UsageError("the start square is off the board");
      q.prefix.push_back(static_cast<std::uint8_t>(s));
    }
  }
  if (q.all_starts) q.prefix.clear();
  if (!q.all_starts) validate_path(q.board, q.prefix, "prefix");
  q.mode.closed =
      closed_asked(r, resumed ? std::optional<bool>(resumed->closed_only) : std::nullopt);
  if (r.algorithm) q.mode.algorithm = *r.algorithm;
  q.symmetry = !r.no_symmetry && (!resumed || resumed->symmetry);
  if (r.split_depth) {
    if (*r.split_depth < 0 || *r.split_depth >= squares) {
      throw UsageError("--split-depth must be between 0 and " + std::to_string(squares - 1));
    }
    q.split_depth = *r.split_depth;
  }
  if (r.shard) {
    q.shard.index = r.shard->index;
    q.shard.count = r.shard->count;
  }
  if (q.shard.index >= q.shard.count) {
    throw UsageError("--shard-index " + std::to_string(q.shard.index) +
                     " must be less than --shard-count " + std::to_string(q.shard.count));
  }
  return q;
}

namespace {

// Closed cycles behind a closed count, when it covers whole cycles: every cycle through a
// fixed start appears twice (two directions), and over all starts 2 * squares times.
std::optional<BigCount> dfs_cycles(const Request& q, const RunReport& report) {
  if (!report.complete() || q.shard.count != 1) return std::nullopt;
  if (q.all_starts)
    return BigCount(report.closed / (2 * static_cast<std::uint64_t>(q.board.squares())));
  if (q.prefix.size() == 1) return BigCount(report.closed / 2);
  return std::nullopt;
}

CountResult count_dfs(const CountRequest& r, const MethodChoice& choice,
                      const RunManifest* resumed) {
  JobRequest job;
  job.command = Command::count;
  job.request = dfs_request(r, resumed);
  job.threads = r.threads;
  job.caps = r.caps;
  job.progress_seconds = r.progress_seconds;
  job.dir = r.run_dir;
  job.resume = resumed != nullptr;
  job.provenance = r.provenance;
  job.tour_symmetries = r.up_to_symmetry;
  const JobOutcome out = run_job(job);
  const RunReport& rep = out.report;
  const Request& q = out.request;

  CountResult res;
  res.shape = q.board.shape();
  res.all_starts = q.all_starts;
  res.prefix.assign(q.prefix.begin(), q.prefix.end());
  res.closed = q.mode.closed;
  res.method = Method::dfs;
  res.why = choice.why;
  res.complete = rep.complete();
  res.counts = res.complete ? CountResult::Counts::exact : CountResult::Counts::lower_bound;
  res.stop_reason = rep.stop_reason;
  res.tours = BigCount(rep.tours);
  res.closed_tours = BigCount(rep.closed);
  res.closed_cycles = dfs_cycles(q, rep);
  res.total_only = q.all_starts && r.total_only;
  if (q.all_starts && !res.total_only) {
    res.tours_by_start = big(rep.tours_by_start);
    res.closed_by_start = big(rep.closed_by_start);
  }
  res.tours_by_end = big(rep.tours_by_end);
  if (r.end) {
    // The tours from the start ending on one square: that square's share of the count.
    res.end = r.end;
    res.tours = res.tours_by_end.at(static_cast<std::size_t>(*r.end));
    const KnightGeometry moves(res.shape);
    const bool neighbours = moves.adjacent(static_cast<std::uint32_t>(res.prefix.front()),
                                           static_cast<std::uint32_t>(*r.end));
    res.closed_tours = neighbours ? res.tours : BigCount{};
    res.closed_cycles.reset();
    res.tours_by_end.clear();
  }
  res.classes_asked = r.up_to_symmetry;
  if (r.up_to_symmetry && res.complete) {
    const TourSymmetryCounts found{rep.tours, rep.tours_by_end, rep.self_reverse,
                                   rep.cycle_stabilizers};
    const std::optional<int> start =
        q.all_starts ? std::nullopt : std::optional<int>(q.prefix.front());
    res.classes = symmetry_classes(q.board, start, found, res.closed_cycles.has_value());
  }
  res.threads = rep.threads;
  res.seconds = rep.seconds;
  res.cpu_seconds = rep.cpu_seconds;
  if (!out.dir.empty()) res.run_dir = out.dir;
  DfsStatistics st;
  st.nodes = rep.nodes;
  st.split_depth = rep.split_depth;
  st.plan_prefixes = rep.plan_prefixes;
  st.shard_prefixes = rep.shard_prefixes;
  st.prefixes_done = rep.prefixes_done;
  st.prefixes_before = rep.prefixes_before;
  st.searches = rep.searches;
  st.tours_found = rep.tours_found;
  st.shard = q.shard;
  st.symmetry = q.symmetry;
  st.algorithm = q.mode.algorithm;
  res.statistics = st;
  return res;
}

// ---- the frontier method --------------------------------------------------------------

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
  if (res.end) res.closed_cycles.reset();      // a count between two squares runs no closed sweep
  if (res.sharded) res.closed_cycles.reset();  // a shard's share holds parts of cycles
}

// The budget, said once at the start of a count: how it was chosen, and a warning when it is
// past the memory there is.
void say_how_memory_is_budgeted(const MemoryPlan& memory_plan) {
  if (!memory_plan.asked && !memory_plan.known) {
    spdlog::debug("memory budget {}: nothing is known of the memory available",
                  size_text(memory_plan.budget));
  } else if (!memory_plan.asked) {
    spdlog::debug("memory budget {}: half of the {} that {} leaves{}{}",
                  size_text(memory_plan.budget), size_text(memory_plan.available),
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
        "--memory {} is more than the {} this {} has available now: the classes may outgrow "
        "memory before the count spills, and the system may kill it (about half of what is "
        "available, the default, leaves room for the rest of the process)",
        size_text(memory_plan.budget), size_text(memory_plan.available / memory_plan.sharing),
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
            "the budget if it needs more (--spill-dir DIR puts them elsewhere)",
            out.off);
      }
      break;
  }
}

CountResult count_frontier(const CountRequest& r, const FrontierPlan& plan,
                           std::optional<FrontierRunDir> run) {
  const FrontierRequest& f = plan.request;
  const auto started = std::chrono::steady_clock::now();
  const double cpu_before = process_cpu_seconds();

  if (std::min(f.shape.rows, f.shape.cols) <= 2 && f.shape.squares() > 1) {
    spdlog::info(
        "a board with a side of 1 or 2 has no knight's tour (its knight graph is not connected): "
        "every count is 0, known without a sweep; the sweep confirms it");
  }
  FrontierOptions options;
  options.threads = plan.threads;
  options.kernel = plan.kernel;
  Ranks* ranks = several_ranks(r.ranks);
  options.ranks = ranks;
  options.memory_limit = plan.memory.budget;
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
    st.shard_index = f.shard_index;
    st.shard_count = f.shard_count;
  } else if (!f.closed && !f.start && !f.total_only) {
    st.grid_method =
        rep.grid_by_backward_pass ? GridMethod::backward_pass : GridMethod::pinned_tails;
  }
  st.peak_anonymous_bytes = peak_anonymous;
  st.anonymous_sample_seconds = memory.interval_seconds();
  st.ranks = ranks ? ranks->size() : 1;
  st.bit_kernel = std::string(bit_kernel_name(plan.kernel));
  st.memory_budget = options.memory_limit;
  st.budget_asked = plan.memory.asked;
  st.spills = !options.spill_dir.empty();
  st.spill_off = spill.off;
  st.stopped_sweep_classes_left = rep.stopped_outlook.classes_left;
  st.stopped_sweep = rep.stopped_sweep;
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

// A finished frontier run in `dir` (checked as read_frontier_run() checks it), whose manifest is
// `m` and job `f`: its counts, from the manifest alone, and by units of end pairs the
// start x end table from its units.
CountResult finished_frontier(const fs::path& dir, const RunManifest& m, const FrontierRequest& f,
                              const MethodChoice& choice) {
  CountResult res = frontier_result(f, choice);
  res.complete = true;
  res.counts = CountResult::Counts::exact;
  res.tours = BigCount::parse(m.frontier.tours);
  res.closed_tours = BigCount::parse(m.frontier.closed_tours);
  res.closed_cycles = BigCount::parse(m.frontier.closed_cycles);
  if (f.grid == GridMethod::end_pairs) {
    std::map<int, BigCount> by_unit;
    for (const auto& [unit, count] : m.frontier.finished) by_unit[unit] = BigCount::parse(count);
    EndPairCounts c = end_pair_counts(f.shape, end_pair_units(f.shape), by_unit, f.shard_index);
    res.tours_by_start = std::move(c.tours_by_start);
    res.closed_by_start = std::move(c.closed_by_start);
    res.tours_by_start_end = std::move(c.tours_by_start_end);
    if (res.sharded) res.closed_cycles.reset();  // a shard's share holds parts of cycles
  } else if (res.all_starts && !res.total_only) {
    for (const auto& c : m.frontier.tours_by_start)
      res.tours_by_start.push_back(BigCount::parse(c));
    res.closed_by_start.assign(res.tours_by_start.size(), *res.closed_cycles * 2);
  }
  res.threads = m.threads;
  res.seconds = 0;  // nothing ran: the run's own time is in its manifest
  res.run_dir = dir;
  FrontierStatistics st;
  if (f.grid == GridMethod::end_pairs) {
    st.grid_method = GridMethod::end_pairs;
    st.shard_index = f.shard_index;
    st.shard_count = f.shard_count;
  }
  st.width = Sweep(f.shape).width();
  st.limbs = limbs_holding(res, 1);
  st.sweeps_planned = m.frontier.sweeps_planned;
  st.sweeps_finished = static_cast<int>(m.frontier.finished.size());
  st.sweeps_resumed = st.sweeps_finished;
  res.statistics = st;
  return res;
}

// ---- new runs and resumed ones --------------------------------------------------------

// What the command line gives that the run in `dir` does not count, e.g. "board 6x7 vs 6x6".
std::vector<std::string> frontier_differences(const CountRequest& r, const FrontierRequest& run) {
  std::vector<std::string> out;
  auto name = [](BoardShape s) { return s.name(); };
  if (r.shape && !(*r.shape == run.shape)) {
    out.push_back("board " + name(*r.shape) + " vs " + name(run.shape));
  }
  if (closed_asked(r, run.closed) != run.closed) {
    out.push_back(run.closed ? "open tours vs closed (add --closed)" : "closed tours vs open");
  }
  const bool all = r.all_starts.value_or(false);
  if (all && run.start) out.push_back("all starts vs one start");
  if (!r.prefix.empty() && (!run.start || r.prefix.front() != *run.start)) {
    out.push_back("start square differs");
  }
  if (r.total_only && !run.total_only) out.push_back("total only vs tours from each square");
  const bool pairs = run.grid == GridMethod::end_pairs;
  if (r.grid && (*r.grid == GridMethod::end_pairs) != pairs) {
    out.push_back(pairs ? "units of end pairs vs another --grid"
                        : "--grid end-pairs vs another grid");
  }
  if (r.sharded() && !pairs) out.push_back("shards vs one count");
  if (r.shard && pairs &&
      (r.shard->index != run.shard_index || r.shard->count != run.shard_count)) {
    out.push_back("shard " + std::to_string(r.shard->index) + " of " +
                  std::to_string(r.shard->count) + " vs " + std::to_string(run.shard_index) +
                  " of " + std::to_string(run.shard_count));
  }
  return out;
}

// The run in `dir` is counted by `method`: a resume may not ask for the other method or
// give the other method's options.
void check_resumable(Method method, const CountRequest& r, const fs::path& dir) {
  const bool dfs = method == Method::dfs;
  const std::string by = dfs ? "the enumerator" : "the frontier method";
  if (r.method == (dfs ? MethodAsked::frontier : MethodAsked::dfs)) {
    throw UsageError("the run in " + dir.string() + " is counted by " + by +
                     "; leave out --method " + (dfs ? "frontier" : "dfs") + " to resume it");
  }
  auto others = dfs ? r.frontier_options() : r.dfs_options();
  // A frontier shard resumes with its --shard-index/--shard-count (frontier_differences).
  if (!dfs) std::erase(others, std::string("--shard-count"));
  if (!others.empty()) {
    throw UsageError(
        others.front() +
        (dfs ? " applies to the frontier method only; the run in " + dir.string() +
                   " is counted by the enumerator"
             : " has no meaning for the frontier method, which counts the run in " + dir.string()));
  }
}

// Refuses a command line that names another count than the run in `dir` counts.
void check_same_count(const CountRequest& r, const fs::path& dir, const FrontierRequest& run) {
  const auto diff = frontier_differences(r, run);
  if (diff.empty()) return;
  std::string list;
  for (const auto& d : diff) list += (list.empty() ? "" : "; ") + d;
  throw UsageError("the command line asks for another count than the run in " + dir.string() +
                   " (" + list + "); resume it as it is with: knightstour count --run-dir " +
                   dir.string() + " --resume");
}

// A frontier run opened to continue, and the plan it continues by.
struct ResumedFrontier {
  FrontierPlan plan;
  FrontierRunDir run;
};

// The frontier run in the locked `dir`, checked as verify checks it (read_frontier_run),
// opened to continue `r`.
ResumedFrontier open_frontier(const CountRequest& r, const fs::path& dir, RunDirectory locked) {
  FrontierRunFiles files = read_frontier_run(dir);
  const RunManifest& m = files.manifest;
  check_same_count(r, dir, files.request);
  FrontierPlan plan = plan_frontier(r, {Method::frontier, "the run directory's method"}, &m);
  FrontierRunDir run =
      FrontierRunDir::open(std::move(locked), std::move(files), plan.checkpoint_seconds);
  return {std::move(plan), std::move(run)};
}

// ---- several MPI ranks ----------------------------------------------------------------
// A count over N ranks keeps its run in DIR/rank-<r> for each rank r (an ordinary frontier
// run directory holding that rank's share of every checkpoint; RankedJournal keeps the
// ranks in step) and DIR/ranks.json, which says N: it resumes under the same N only.

// Runs `setup` on every rank; when it failed on any, throws on every rank the first failing
// rank's error, so that rank 0 reports it and all of them leave together (one rank leaving
// alone would leave the others waiting for it in the next collective call).
template <class F>
auto on_every_rank(Ranks& ranks, F&& setup) -> decltype(setup()) {
  std::optional<decltype(setup())> out;
  std::string error;
  char kind = 0;  // 1: a usage error, 2: any other
  try {
    out.emplace(setup());
  } catch (const UsageError& e) {
    error = e.what();
    kind = 1;
  } catch (const FormatError& e) {
    // A file refused (another job's, rank's or run's): bad input, which every rank now
    // reports alike, so that rank 0 says it once and all leave together (exit 2).
    error = e.what();
    kind = 1;
  } catch (const std::exception& e) {
    error = e.what();
    kind = 2;
  }
  constexpr std::size_t kText = 500;
  std::vector<std::byte> mine(kText + 1, std::byte{0});
  std::memcpy(mine.data(), error.data(), std::min(error.size(), kText - 1));
  mine[kText] = static_cast<std::byte>(kind);
  const std::vector<std::byte> all = ranks.all_gather(mine);
  for (int k = 0; k < ranks.size(); ++k) {
    const std::byte* at = all.data() + static_cast<std::size_t>(k) * (kText + 1);
    if (at[kText] == std::byte{0}) continue;
    std::string text(reinterpret_cast<const char*>(at));
    if (k != 0) text = "MPI rank " + std::to_string(k) + ": " + text;
    if (at[kText] == std::byte{1}) throw UsageError(text);
    throw IoError(text);
  }
  return std::move(*out);
}

// A count over several ranks with a run directory: a new one, or one resumed.
CountResult count_over_ranks(const CountRequest& asked) {
  Ranks& ranks = *asked.ranks;
  const fs::path top = *asked.run_dir;
  CountRequest mine = asked;
  mine.run_dir = run_layout::rank_dir(top, ranks.rank());
  const std::string n = std::to_string(ranks.size());
  if (asked.resume) {
    ResumedFrontier resumed = on_every_rank(ranks, [&] {
      const auto counted = read_ranked_run(top);
      if (!counted) {
        std::string why;
        if (fs::exists(run_layout::manifest_path(top))) {
          const RunManifest m = read_manifest(top);
          why = FrontierRunDir::share_refusal(top, m).value_or(
              top.string() + " holds a count of one process: resume it without mpirun");
        }
        throw UsageError(why.empty() ? top.string() + " holds no count over MPI ranks" : why);
      }
      if (counted->ranks != ranks.size()) {
        throw UsageError("the run in " + top.string() + " is counted over " +
                         std::to_string(counted->ranks) + " MPI ranks, not " + n +
                         ": resume it with mpirun -np " + std::to_string(counted->ranks));
      }
      check_ranked_top(top, counted->ranks);
      RunDirectory locked = RunDirectory::open(*mine.run_dir);
      const RunManifest m = read_manifest(*mine.run_dir);
      check_resumable(m.method, mine, *mine.run_dir);
      if (m.method == Method::frontier) check_rank_share(*mine.run_dir, m, *counted, ranks.rank());
      return open_frontier(mine, *mine.run_dir, std::move(locked));
    });
    const bool done = resumed.run.manifest().status == RunStatus::complete;
    CountResult res = ranks.any_bits(done ? 0u : 1u) == 0
                          ? finished_frontier(resumed.run.dir(), resumed.run.manifest(),
                                              resumed.run.request(), resumed.plan.method)
                          : count_frontier(mine, resumed.plan, std::move(resumed.run));
    res.run_dir = top;
    std::get<FrontierStatistics>(res.statistics).ranks = ranks.size();  // also when read back
    return res;
  }
  const CountRequest r = request_with_defaults(mine);
  const FrontierPlan plan = plan_frontier(r, choose_method(r));
  // Every rank's directory names rank 0's run id, so that a share of another run is refused.
  std::string id = ranks.rank() == 0 ? FrontierRunDir::new_run_id() : std::string(16, '0');
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), id.data(), 16);
  const std::vector<std::byte> all = ranks.all_gather(bytes);
  id.assign(reinterpret_cast<const char*>(all.data()), 16);
  FrontierRunDir run = on_every_rank(ranks, [&] {
    if (ranks.rank() == 0 &&
        (fs::exists(top / run_layout::kRanksFile) || fs::exists(run_layout::manifest_path(top)))) {
      throw UsageError(top.string() +
                       " already holds a run; add --resume to continue it, or choose another "
                       "directory");
    }
    RunManifest base;
    base.provenance = r.provenance;
    base.caps.time_limit = r.caps.time_limit;
    base.frontier.rank = ranks.rank();
    base.frontier.ranks = ranks.size();
    base.frontier.run_id = id;
    FrontierRunDir created =
        FrontierRunDir::create(*r.run_dir, plan.request, base, plan.checkpoint_seconds);
    if (ranks.rank() == 0) {
      write_ranked_run(top, {ranks.size(), id});
    }
    return created;
  });
  CountResult res = count_frontier(r, plan, std::move(run));
  res.run_dir = top;
  return res;
}

CountResult resume(const CountRequest& r) {
  if (!r.run_dir) throw UsageError("--resume needs --run-dir DIR");
  const fs::path dir = *r.run_dir;
  std::error_code ec;
  if (const auto n = run_layout::holds_ranked_shares(dir) ? read_ranked_run(dir) : std::nullopt) {
    throw UsageError(dir.string() + " holds a count over " + std::to_string(n->ranks) +
                     " MPI ranks: resume it with mpirun -np " + std::to_string(n->ranks) +
                     " (or srun with as many tasks)");
  }
  if (!fs::exists(run_layout::manifest_path(dir), ec) &&
      fs::exists(dir / run_layout::kOldFrontierJob, ec)) {
    throw UsageError(dir.string() + " holds a frontier run of format 1 (" +
                     run_layout::kOldFrontierJob +
                     "), which this knightstour does not resume; count it again in a new "
                     "directory");
  }
  if (!fs::exists(run_layout::manifest_path(dir), ec)) {
    throw UsageError(dir.string() + " holds no run to resume (no " + run_layout::kManifest + ")");
  }
  // A finished run is only read: no lock, nothing written (it may be a record on a read-only
  // file system); a frontier run's counts from its manifest (by end pairs, from its units),
  // the enumerator's from its journal (RunSession reads a finished run so).
  if (const RunManifest m = read_manifest(dir); m.status == RunStatus::complete) {
    if (const auto refusal = FrontierRunDir::share_refusal(dir, m)) throw UsageError(*refusal);
    check_resumable(m.method, r, dir);
    if (m.method == Method::dfs)
      return count_dfs(r, {Method::dfs, "the run directory's method"}, &m);
    const FrontierRunFiles files = read_frontier_run(dir);
    check_same_count(r, dir, files.request);
    return finished_frontier(dir, files.manifest, files.request,
                             {Method::frontier, "the run directory's method"});
  }
  // Lock first, then look: the manifest says which method resumes the run.
  RunDirectory locked = RunDirectory::open(dir);
  RunManifest m = read_manifest(dir);
  if (const auto refusal = FrontierRunDir::share_refusal(dir, m)) throw UsageError(*refusal);
  check_resumable(m.method, r, dir);
  if (m.method == Method::dfs) {
    { RunDirectory release = std::move(locked); }  // the run session locks it again
    return count_dfs(r, {Method::dfs, "the run directory's method"}, &m);
  }
  ResumedFrontier resumed = open_frontier(r, dir, std::move(locked));
  return count_frontier(r, resumed.plan, std::move(resumed.run));
}

// Counts up to symmetry need every tour of the job in one session: the journal keeps no
// per-tour symmetry counts.
void check_up_to_symmetry(const CountRequest& r) {
  if (!r.up_to_symmetry) return;
  if (r.run_dir || r.resume) {
    throw UsageError(
        "--up-to-symmetry counts in one session and keeps nothing in a run directory; "
        "leave out --run-dir (and --resume)");
  }
  if (r.prefix.size() > 1) {
    throw UsageError(
        "--up-to-symmetry counts from a start square or over all starts; give --start instead "
        "of --prefix");
  }
  if (r.shard && r.shard->count > 1) {
    throw UsageError("--up-to-symmetry needs every tour in one run; leave out --shard-count");
  }
}

// A count between two squares (--end) runs in one session of one process, from one start.
void check_end(const CountRequest& r) {
  if (!r.end) return;
  if (r.run_dir || r.resume) {
    throw UsageError("--end counts in one session and keeps no run directory; leave out --run-dir");
  }
  if (r.closed.value_or(false)) {
    throw UsageError(
        "--end counts open tours between two squares (those ending a knight move from the "
        "start are the closed ones); leave out --closed");
  }
  if (r.shard && r.shard->count > 1) {
    throw UsageError("--end counts in one run; leave out --shard-count");
  }
  if (r.up_to_symmetry) throw UsageError("--end and --up-to-symmetry do not go together");
  if (r.caps.max_tours != 0) {
    // The cap counts the tours found to every end, which --end does not count.
    throw UsageError(
        "--max-tours caps the tours found to any end, not those ending on --end; give "
        "--time-limit or --max-nodes instead");
  }
  if (several_ranks(r.ranks) != nullptr) {
    throw UsageError("--end counts in one process; start it without mpirun");
  }
  if (r.prefix.size() != 1) throw UsageError("--end goes with --start");
  if (*r.end == r.prefix.front()) {
    throw UsageError("--end must be another square than --start (a tour visits each square once)");
  }
}

}  // namespace

CountResult run_count(const CountRequest& asked) {
  check_up_to_symmetry(asked);
  check_end(asked);
  if (several_ranks(asked.ranks) != nullptr && asked.run_dir) {
    return count_over_ranks(asked);
  }
  if (asked.resume) return resume(asked);
  if (asked.checkpoint_seconds && !asked.run_dir) {
    throw UsageError("--checkpoint needs --run-dir DIR (where the checkpoints go)");
  }
  const CountRequest r = request_with_defaults(asked);
  const MethodChoice choice = choose_method(r);
  if (choice.method == Method::dfs) return count_dfs(r, choice, nullptr);
  const FrontierPlan plan = plan_frontier(r, choice);  // before anything is created
  std::optional<FrontierRunDir> run;
  if (r.run_dir) {
    RunManifest base;
    base.provenance = r.provenance;
    base.caps.time_limit = r.caps.time_limit;
    run.emplace(FrontierRunDir::create(*r.run_dir, plan.request, base, plan.checkpoint_seconds));
  }
  return count_frontier(r, plan, std::move(run));
}

CountRequest request_with_defaults(CountRequest r) {
  if (!r.shape) throw UsageError("missing BOARD, e.g. 6x6 or 5");
  if (!r.all_starts.value_or(false) && r.prefix.empty()) {
    if (!r.closed.value_or(false)) {
      throw UsageError(
          "give a start square with --start (e.g. --start a1), a --prefix, or --all-starts");
    }
    r.prefix = {0};
  }
  return r;
}

}  // namespace knightstour
