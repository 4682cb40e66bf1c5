#include "estimate_frontier.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cli_options.hpp"
#include "flag_names.hpp"
#include "json_counts.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/frontier_plan.hpp"
#include "knightstour/count/frontier_projection.hpp"
#include "knightstour/count/run_count.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_report.hpp"
#include "knightstour/io/temp_directory.hpp"
#include "output.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

std::string gib(double bytes) {
  char b[32];
  const double gibs = bytes / (1024.0 * 1024 * 1024);
  if (gibs >= 1000) {  // "0.986 TiB", not "1.01e+03 GiB"
    std::snprintf(b, sizeof b, "%.3g TiB", gibs / 1024);
  } else if (gibs < 0.01) {  // a tiny --memory: "1 KiB", not "9.54e-07 GiB"
    return size_text(static_cast<std::uint64_t>(bytes));
  } else {
    std::snprintf(b, sizeof b, "%.3g GiB", gibs);
  }
  return b;
}

// The calibration's length as given: human_duration rounds 0.5 s to "0 s".
std::string calibration_length(double seconds) {
  if (seconds >= 60) return human_duration(seconds);
  char b[32];
  std::snprintf(b, sizeof b, "%g s", seconds);
  return b;
}

// Where the count's spill files would go, and the bytes free there now (-1: unknown).
std::pair<std::string, double> spill_room(const FrontierPlan& plan) {
  const std::filesystem::path dir =
      plan.spill.to == SpillTo::folder ? plan.spill.parent : default_temp_parent();
  std::error_code error;
  const auto space = std::filesystem::space(dir, error);
  return {dir.string(), error ? -1.0 : static_cast<double>(space.available)};
}

std::string spill_name(SpillTo to) {
  switch (to) {
    case SpillTo::nowhere:
      return "nowhere";
    case SpillTo::run_directory:
      return "run directory";
    case SpillTo::folder:
      return "folder";
  }
  return "";
}

// The residue units of the count a residue unit's plan is one of.
int residue_units(const FrontierPlan& plan) {
  return static_cast<int>(residue_primes(plan.request).size());
}

// The plan a count with the same options would run.
nlohmann::json plan_json(const FrontierPlan& plan) {
  nlohmann::json j{{"memory_budget", plan.memory.memory_budget},
                   {"memory_asked", plan.memory.asked},
                   {"memory_available", plan.memory.available},
                   {"spill_to", spill_name(plan.spill.to)},
                   {"sweeps", plan.sweeps},
                   {"bit_kernel", std::string(bit_kernel_name(plan.kernel))},
                   {"threads", plan.threads}};
  if (plan.spill.to == SpillTo::folder) j["spill_parent"] = plan.spill.parent.string();
  if (plan.request.grid == GridMethod::end_pairs) j["shard_units"] = plan.shard_units;
  if (plan.request.modulus != 0) {
    j["modulus"] = plan.request.modulus;
    j["residue_units"] = residue_units(plan);
  }
  return j;
}

void print_json(const CountResult& r, const FrontierStatistics& st, const Projection& p,
                const FrontierPlan& plan, double calibrate, bool interrupted, bool at_budget) {
  nlohmann::json j{{"board", r.shape.name()},
                   {"method", "frontier"},
                   {"method_reason", r.why},
                   {"all_starts", r.all_starts},
                   {"total_only", r.total_only},
                   {"closed_only", r.closed},
                   {"threads", r.threads},
                   {"calibrate", calibrate},
                   {"exact", r.complete},
                   {"calibrated_in_two_parts", p.two_parts},
                   {"classes_expanded", p.classes_expanded},
                   {"seconds_per_class", p.seconds_per_class},
                   {"classes_left", p.classes_left},
                   {"peak_classes", p.peak_classes},
                   {"peak_class_bytes", p.peak_bytes},
                   {"memory_budget", st.memory_budget},
                   {"past_memory_budget", !r.complete && p.peak_bytes > st.memory_budget},
                   {"rest_bytes_per_class", p.rest_bytes_per_class},
                   {"peak_rest_bytes", p.peak_rest_bytes()},
                   {"widest_step_spilling_bytes", p.widest_step_spilling()},
                   {"seconds", r.complete ? r.seconds : p.seconds},
                   {"stopped_at_memory_budget", at_budget},
                   {"interrupted", interrupted},
                   {"plan", plan_json(plan)}};
  if (!r.all_starts) {
    const auto s = r.prefix.front();
    j["start"] =
        square_name(static_cast<int>(s / r.shape.cols), static_cast<int>(s % r.shape.cols));
  }
  if (r.complete) {
    j["tours"] = json_count(r.tours);
    if (r.closed_cycles) j["closed_cycles"] = json_count(*r.closed_cycles);
    j["peak_classes"] = st.peak_classes;
    j["peak_class_bytes"] = st.peak_bytes;
  }
  add_provenance(j);
  print_json_object(j);
}

// What a count past its memory budget needs on disk: its largest generation at rest, and its
// widest step, the generation it expands, the one it builds and their successors, in the budget
// and the disk together (the rule of the warning a spilling sweep gives, room_warning.hpp).
void print_spill_need(const FrontierPlan& plan, const FrontierStatistics& st, const Projection& p,
                      bool budget_given) {
  const auto [dir, free] = spill_room(plan);
  const std::string budget = gib(static_cast<double>(st.memory_budget));
  if (budget_given) {
    std::printf(
        "memory     past the budget of %s (--memory): the count would spill to disk in\n"
        "           passes and take longer,",
        budget.c_str());
  } else {
    std::printf(
        "memory     past count's default budget of %s (half the memory available;\n"
        "           --memory sets it): the count would spill to disk in passes and take\n"
        "           longer,",
        budget.c_str());
  }
  const double room = static_cast<double>(st.memory_budget) + free;
  std::printf(
      " its largest generation ~%s at rest (%.1f bytes a class);\n"
      "           its widest step needs at least ~%s in the budget and the disk together\n"
      "           (the generation it expands, the one it builds, their successors), in its\n"
      "           --spill-dir or else %s (%s free now%s)\n",
      gib(p.peak_rest_bytes()).c_str(), p.rest_bytes_per_class,
      gib(p.widest_step_spilling()).c_str(), dir.c_str(), free < 0 ? "unknown" : gib(free).c_str(),
      free >= 0 && p.widest_step_spilling() > room ? ": too little" : "");
}

void print_projection_note() {
  std::printf(
      "note       A rough projection: each column holds the one before times a growth that\n"
      "           fades, collapses in columns 6 and 7 and then holds, and falls over the last\n"
      "           three (sweep_outlook.hpp). Fitted to 21 whole sweeps 5 to 8 wide: from\n"
      "           column 4 on, median error x1.15, 90%% within x1.9, worst x12 (early in a\n"
      "           column). 8x8 closed from 60 s: 6 min 04 s, 5.5e8 classes at the peak\n"
      "           (the count that day: 4 min 10 s, 3.6e8). Boards past 8 wide are outside\n"
      "           the fit. A longer --calibrate sees more of the sweep, up to the memory\n"
      "           budget.\n");
}

// A calibration: the count stopped at its time limit or budget, and its projection (in two
// parts when it saw only an open job's closed sweep: the open sweeps calibrated again alone).
struct Calibration {
  CountResult r;
  Projection p;
  bool interrupted = false;
  bool at_budget = false;
};

Calibration run_calibration(const CountRequest& request) {
  Calibration c;
  c.r = run_count(request);
  c.p = project(c.r);
  c.interrupted = c.r.stop_reason == StopReason::signal;
  c.at_budget = c.r.stop_reason == StopReason::memory;
  if (!c.interrupted && saw_only_the_closed_sweep(c.r)) {
    CountRequest open_part = request;
    open_part.open_sweeps_only = true;
    const CountResult open = run_count(open_part);
    c.interrupted = open.stop_reason == StopReason::signal;
    c.at_budget = c.at_budget || open.stop_reason == StopReason::memory;
    c.p = project_in_two(c.r, open);
  }
  return c;
}

// The estimate's first lines: the job, how it was sized, and the plan a count would run.
void print_what_is_sized(const CountResult& r, const Projection& p, const FrontierPlan& plan,
                         double calibrate) {
  std::string job = what_is_counted(r.shape, r.all_starts, r.prefix, r.closed, r.total_only);
  if (r.end) {
    job += " ending on " + square_name(static_cast<int>(*r.end / r.shape.cols),
                                       static_cast<int>(*r.end % r.shape.cols));
  }
  std::printf("board      %s, %s\n", r.shape.name().c_str(), job.c_str());
  std::printf("method     frontier (%s): estimated from a %s count%s\n", r.why.c_str(),
              calibration_length(calibrate).c_str(), p.two_parts ? " in each of two parts" : "");
  for (const std::string& line : describe(plan)) std::printf("%s\n", spell_flags(line).c_str());
}

// The whole count ran within the calibration: its figures, nothing projected.
void print_exact(const CountResult& r, const FrontierStatistics& st) {
  const std::string mod = residue_mark(r.modulus);
  std::printf("exact      the whole count ran during calibration: %s tours%s",
              r.tours.with_commas().c_str(), mod.c_str());
  if (r.closed_cycles) {
    std::printf(", %s closed cycles%s", r.closed_cycles->with_commas().c_str(), mod.c_str());
  }
  std::printf(" in %.3f s, %s classes at most (%s)\n", r.seconds,
              estimate_figure(static_cast<double>(st.peak_classes)).c_str(),
              gib(static_cast<double>(st.peak_bytes)).c_str());
}

// How the calibration ended, besides running to its time limit.
struct CalibrationEnd {
  bool interrupted = false;   // by a signal: nothing is projected
  bool at_budget = false;     // it reached the memory budget and stopped there
  bool budget_given = false;  // --memory was given
};

// What was measured and what it projects; the exit status of the estimate.
int print_projection(const CountResult& r, const FrontierStatistics& st, const Projection& p,
                     const FrontierPlan& plan, CalibrationEnd end) {
  const bool interrupted = end.interrupted, at_budget = end.at_budget;
  if (p.two_parts) {
    std::printf(
        "parts      the calibration ended in the closed sweep, which an open job runs first;\n"
        "           the open sweeps, which hold most of the classes, were then calibrated\n"
        "           alone, and the two parts are projected apart and added\n");
  }
  std::printf(
      "measured   %s classes expanded in %.1f s on %d threads (%.0f ns of wall time each); "
      "%d of %d sweeps finished, %s classes at most so far\n",
      estimate_figure(static_cast<double>(p.classes_expanded)).c_str(), p.calibrated_seconds,
      r.threads, p.seconds_per_class * 1e9, st.sweeps_finished, st.sweeps_planned,
      estimate_figure(static_cast<double>(p.peak_seen)).c_str());
  if (interrupted) {
    std::printf("stopped    interrupted by a signal: nothing projected\n");
    return kExitStopped;
  }
  if (at_budget) {
    std::printf(
        "stopped    the calibration reached the memory budget of %s after %.1f s and stopped\n"
        "           there (an estimate writes nothing to disk)%s\n",
        gib(static_cast<double>(st.memory_budget)).c_str(), p.calibrated_seconds,
        p.seconds < 0 ? "" : "; the count spills past it");
  }
  if (p.seconds < 0) {
    std::printf(at_budget ? "projected  nothing: the budget stopped the calibration before it "
                            "expanded a class (give more --memory)\n"
                          : "projected  nothing: no class was expanded (give a longer "
                            "--calibrate)\n");
    return kExitOk;
  }
  std::printf(
      "projected  ~%s classes still to expand; the largest generation ~%s classes, its step "
      "~%s (%.0f bytes a class during a step, as measured)\n",
      estimate_figure(p.classes_left).c_str(), estimate_figure(p.peak_classes).c_str(),
      gib(p.peak_bytes).c_str(), p.bytes_per_class);
  std::printf("time       ~%s for knightstour count with the same options\n",
              human_duration(p.seconds).c_str());
  if (st.grid_method == GridMethod::backward_pass) {
    // Its memory is not in the projection above: what it keeps adapts to the budget.
    std::printf(
        "grid       by a pass back over the unpinned sweep, which keeps the sweep's generations\n"
        "           in up to half the budget (each column's first only when they do not fit;\n"
        "           pinned tails instead when even those do not, or with --run-dir or MPI\n"
        "           ranks, which this projection does not cover): docs/frontier.md\n");
  }
  if (p.peak_bytes > static_cast<double>(st.memory_budget)) {
    print_spill_need(plan, st, p, end.budget_given);
  }
  print_projection_note();
  return kExitOk;
}

// Each of `shards` shards of a job of `units` units of end pairs (unit k to shard k mod N), at
// `cores` cores: the whole job's CPU (measured, or projected at the calibration's use of its
// threads) shared out by units, at the mean of the units.
void print_shards(const CountResult& r, const Projection& p, int units, int finished, int shards,
                  int cores) {
  const double wall = r.complete ? r.seconds : p.seconds;
  const double use = r.seconds > 0 ? r.cpu_seconds / r.seconds : 1.0;  // threads kept busy
  const double cpu = wall * use;
  const double per_unit = cpu / std::max(units, 1);
  const int most = (units + shards - 1) / shards;
  std::printf(
      "shards     %d x %d cores: at most %d units each (unit k to shard k mod %d), ~%.3g "
      "CPU-seconds a unit on average (units differ several times over in cost; one shard a "
      "unit, a few at a time, evens them out: docs/cluster.md)\n",
      shards, cores, most, shards, per_unit);
  const double shard_wall = per_unit * most / cores;
  std::string shard_time = "under 1 s";
  if (shard_wall >= 1) shard_time = std::string(1, '~').append(human_duration(shard_wall));
  std::printf(
      "wall       %s for a shard of %d units at %d cores, if they scale as %d do here; ask "
      "sbatch --time for about twice that\n",
      shard_time.c_str(), most, cores, r.threads);
  std::printf(
      "cost       ~%.3g core-hours in all: the CPU of the whole job (the time above is one "
      "count's\n"
      "           wall here, where the calibration kept %.1f of its %d threads busy)\n",
      cpu / 3600.0, use, r.threads);
  if (!r.complete && finished < 2) {
    // The first steps of a unit cost more a class than the rest, and one unit is no mean.
    std::printf(
        "note       %d of the units finished during the calibration, so their mean is projected\n"
        "           from the steps of few (7x7 against its count: from 2 s, none finished, 3.5x\n"
        "           the CPU; from 6 s, one, 1.15x; from 12 s, two, 1.37x): a longer --calibrate\n"
        "           finishes more\n",
        finished);
  }
}

// A residue unit's job: its units, each about as long and as large as this one (the same
// classes, one 64-bit word a count).
void print_residue_units(const FrontierPlan& plan, double unit_seconds) {
  const int units = residue_units(plan);
  std::printf(
      "residues   this is one of %d residue units (count --residue-unit 0 to %d, each with its "
      "--run-dir; merge them): ~%s in all, each unit about as long and as large as this one\n",
      units, units - 1, human_duration(unit_seconds * units).c_str());
}

// A row: its plan and its residue units, no time. The outlook that projects a count was
// fitted to one board's sweep, and a row's sweep of every length is not one (8x12 closed
// projected at ~18 s); results/rows/README.md has what rows cost here, measured.
int estimate_row(const FrontierPlan& plan, const MethodChoice& choice, bool json) {
  const FrontierRequest& f = plan.request;
  if (json) {
    nlohmann::json j{{"board", f.shape.name()},     {"method", "frontier"},
                     {"method_reason", choice.why}, {"all_starts", true},
                     {"total_only", f.total_only},  {"closed_only", f.closed},
                     {"every_length", true},        {"seconds", -1},
                     {"plan", plan_json(plan)}};
    add_provenance(j);
    print_json_object(j);
    return kExitOk;
  }
  std::printf("board      %d x n for n = 1 to %d, %s, every length\n", f.shape.rows, f.shape.cols,
              f.closed ? "closed tours" : "open tours over all starts");
  std::printf("method     frontier (%s)\n", choice.why.c_str());
  for (const std::string& line : describe(plan)) std::printf("%s\n", spell_flags(line).c_str());
  std::printf(
      "time       not projected: the outlook is fitted to one board's sweep, not a row's "
      "(results/rows/README.md: rows measured here)\n");
  if (f.modulus != 0) {
    const int units = residue_units(plan);
    std::printf(
        "residues   this is one of %d residue units (count --residue-unit 0 to %d, each with "
        "its --run-dir; merge them), each about as long and as large as the others\n",
        units, units - 1);
  }
  return kExitOk;
}

}  // namespace

int estimate_by_frontier(CountRequest request, const MethodChoice& choice, double calibrate,
                         bool json, int cores_per_shard) {
  if (calibrate <= 0) {
    throw UsageError(
        "the frontier method's estimate is a short count: --calibrate must be above 0");
  }
  request.method = MethodAsked::frontier;
  // The plan a count with the same options would run, made before the calibration's own
  // settings below (no spilling, the time limit).
  FrontierPlan plan = plan_frontier(request_with_defaults(request), choice);
  const int shard_count = request.shard ? request.shard->count : 1;
  if (cores_per_shard > 0) {
    if (plan.request.grid != GridMethod::end_pairs) {
      throw UsageError(
          "--cores-per-shard sizes the shards of a frontier count by units of end pairs (open "
          "tours over all starts)");
    }
    // The first figures are of the whole job (its units spread over it), then come the shards.
    request.shard.reset();
    request.grid = GridMethod::end_pairs;
    plan = plan_frontier(request_with_defaults(request), choice);
  }
  if (plan.request.every_length) return estimate_row(plan, choice, json);
  request.caps.time_limit = calibrate;
  request.run_dir.reset();
  // The calibration holds its classes within the budget and stops there instead of
  // spilling: an estimate writes nothing to disk. (Spilling, it wrote 8.6 GiB to $TMPDIR in
  // a minute of 8x8 closed, and a $TMPDIR too small for that ended it with an error.) The
  // steps it would have spilled are the ones the projection covers.
  const bool budget_given = request.memory_budget.has_value();
  request.spill_dir = "none";
  Calibration c = run_calibration(request);
  CountResult& r = c.r;
  const Projection& p = c.p;
  const bool interrupted = c.interrupted, at_budget = c.at_budget;
  r.why = choice.why;
  const auto& st = std::get<FrontierStatistics>(r.statistics);
  if (json) {
    print_json(r, st, p, plan, calibrate, interrupted, at_budget);
    return interrupted ? kExitStopped : kExitOk;
  }
  print_what_is_sized(r, p, plan, calibrate);
  int code = kExitOk;
  if (r.complete) {
    print_exact(r, st);
  } else {
    code = print_projection(r, st, p, plan, {interrupted, at_budget, budget_given});
  }
  if (plan.request.modulus != 0 && code == kExitOk && (r.complete || p.seconds > 0)) {
    print_residue_units(plan, r.complete ? r.seconds : p.seconds);
  }
  if (cores_per_shard > 0 && code == kExitOk && (r.complete || p.seconds > 0)) {
    print_shards(r, p, st.sweeps_planned, st.sweeps_finished, shard_count, cores_per_shard);
  }
  return code;
}

}  // namespace knightstour::cli
