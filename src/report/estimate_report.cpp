#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/base/progress.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/report/reports.hpp"
#include "knightstour/report/words.hpp"
#include "report_text.hpp"

namespace knightstour {

namespace {

using report_text::format;
using report_text::gib;
using report_text::json_count;
using report_text::say;

// The calibration's length as given: human_duration rounds 0.5 s to "0 s".
std::string calibration_length(double seconds) {
  if (seconds >= 60) return human_duration(seconds);
  return format("%g s", seconds);
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

// The plan a count with the same options would run.
nlohmann::json plan_json(const FrontierEstimate& f) {
  const FrontierPlan& plan = f.plan;
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
    j["residue_units"] = f.residue_units;
  }
  return j;
}

std::string frontier_json(const FrontierEstimate& f) {
  const CountResult& r = f.r;
  const Projection& p = f.p;
  const auto& st = std::get<FrontierStatistics>(r.statistics);
  nlohmann::json j{{"board", r.shape.name()},
                   {"method", "frontier"},
                   {"method_reason", f.choice.why},
                   {"all_starts", r.all_starts},
                   {"total_only", r.total_only},
                   {"closed_only", r.closed},
                   {"threads", r.threads},
                   {"calibrate", f.calibrate},
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
                   {"stopped_at_memory_budget", f.at_budget},
                   {"interrupted", f.interrupted},
                   {"plan", plan_json(f)}};
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
  return j.dump();
}

// What a count past its memory budget needs on disk: its largest generation at rest, and its
// widest step, the generation it expands, the one it builds and their successors, in the budget
// and the disk together (the rule of the warning a spilling sweep gives, room_warning.hpp).
void spill_need(Report& out, const FrontierEstimate& f, const FrontierStatistics& st) {
  const Projection& p = f.p;
  const std::string budget = gib(static_cast<double>(st.memory_budget));
  std::string text =
      f.budget_given
          ? format(
                "memory     past the budget of %s ($memory_budget): the count would spill to "
                "disk in\n           passes and take longer,",
                budget.c_str())
          : format(
                "memory     past count's default budget of %s (half the memory available;\n"
                "           $memory_budget sets it): the count would spill to disk in passes "
                "and take\n           longer,",
                budget.c_str());
  const double free = f.spill_free;
  const double room = static_cast<double>(st.memory_budget) + free;
  text += format(
      " its largest generation ~%s at rest (%.1f bytes a class);\n"
      "           its widest step needs at least ~%s in the budget and the disk together\n"
      "           (the generation it expands, the one it builds, their successors), in its\n"
      "           $spill_dir or else %s (%s free now%s)",
      gib(p.peak_rest_bytes()).c_str(), p.rest_bytes_per_class,
      gib(p.widest_step_spilling()).c_str(), f.spill_dir.c_str(),
      free < 0 ? "unknown" : gib(free).c_str(),
      free >= 0 && p.widest_step_spilling() > room ? ": too little" : "");
  out.lines.push_back(text);
}

void projection_note(Report& out) {
  say(out,
      "note       A rough projection: each column holds the one before times a growth that\n"
      "           fades, collapses in columns 6 and 7 and then holds, and falls over the last\n"
      "           three (sweep_outlook.hpp). Fitted to 21 whole sweeps 5 to 8 wide: from\n"
      "           column 4 on, median error x1.15, 90%% within x1.9, worst x12 (early in a\n"
      "           column). 8x8 closed from 60 s: 6 min 04 s, 5.5e8 classes at the peak\n"
      "           (the count that day: 4 min 10 s, 3.6e8). Boards past 8 wide are outside\n"
      "           the fit. A longer $calibrate sees more of the sweep, up to the memory\n"
      "           budget.\n");
}

// The estimate's first lines: the job, how it was sized, and the plan a count would run.
void what_is_sized(Report& out, const FrontierEstimate& f) {
  const CountResult& r = f.r;
  std::string job = what_is_counted(r.shape, r.all_starts, r.prefix, r.closed, r.total_only);
  if (r.end) {
    job += " ending on " + square_name(static_cast<int>(*r.end / r.shape.cols),
                                       static_cast<int>(*r.end % r.shape.cols));
  }
  say(out, "board      %s, %s\n", r.shape.name().c_str(), job.c_str());
  say(out, "method     frontier (%s): estimated from a %s count%s\n", f.choice.why.c_str(),
      calibration_length(f.calibrate).c_str(), f.p.two_parts ? " in each of two parts" : "");
  for (const std::string& line : describe(f.plan)) out.lines.push_back(line);
}

// The whole count ran within the calibration: its figures, nothing projected.
void exact(Report& out, const CountResult& r, const FrontierStatistics& st) {
  const std::string mod = residue_mark(r.modulus);
  std::string text = format("exact      the whole count ran during calibration: %s tours%s",
                            r.tours.with_commas().c_str(), mod.c_str());
  if (r.closed_cycles) {
    text += format(", %s closed cycles%s", r.closed_cycles->with_commas().c_str(), mod.c_str());
  }
  text += format(" in %.3f s, %s classes at most (%s)", r.seconds,
                 estimate_figure(static_cast<double>(st.peak_classes)).c_str(),
                 gib(static_cast<double>(st.peak_bytes)).c_str());
  out.lines.push_back(text);
}

// What was measured and what it projects; false when nothing is projected.
void projection(Report& out, const FrontierEstimate& f, const FrontierStatistics& st) {
  const CountResult& r = f.r;
  const Projection& p = f.p;
  if (p.two_parts) {
    say(out,
        "parts      the calibration ended in the closed sweep, which an open job runs first;\n"
        "           the open sweeps, which hold most of the classes, were then calibrated\n"
        "           alone, and the two parts are projected apart and added\n");
  }
  say(out,
      "measured   %s classes expanded in %.1f s on %d threads (%.0f ns of wall time each); "
      "%d of %d sweeps finished, %s classes at most so far\n",
      estimate_figure(static_cast<double>(p.classes_expanded)).c_str(), p.calibrated_seconds,
      r.threads, p.seconds_per_class * 1e9, st.sweeps_finished, st.sweeps_planned,
      estimate_figure(static_cast<double>(p.peak_seen)).c_str());
  if (f.interrupted) {
    say(out, "stopped    interrupted by a signal: nothing projected\n");
    return;
  }
  if (f.at_budget) {
    say(out,
        "stopped    the calibration reached the memory budget of %s after %.1f s and stopped\n"
        "           there (an estimate writes nothing to disk)%s\n",
        gib(static_cast<double>(st.memory_budget)).c_str(), p.calibrated_seconds,
        p.seconds < 0 ? "" : "; the count spills past it");
  }
  if (p.seconds < 0) {
    say(out, f.at_budget ? "projected  nothing: the budget stopped the calibration before it "
                           "expanded a class (give more $memory_budget)\n"
                         : "projected  nothing: no class was expanded (give a longer "
                           "$calibrate)\n");
    return;
  }
  say(out,
      "projected  ~%s classes still to expand; the largest generation ~%s classes, its step "
      "~%s (%.0f bytes a class during a step, as measured)\n",
      estimate_figure(p.classes_left).c_str(), estimate_figure(p.peak_classes).c_str(),
      gib(p.peak_bytes).c_str(), p.bytes_per_class);
  say(out, "time       ~%s for knightstour count with the same options\n",
      human_duration(p.seconds).c_str());
  if (st.grid_method == GridMethod::backward_pass) {
    // Its memory is not in the projection above: what it keeps adapts to the budget.
    say(out,
        "grid       by a pass back over the unpinned sweep, which keeps the sweep's generations\n"
        "           in up to half the budget (each column's first only when they do not fit;\n"
        "           pinned tails instead when even those do not, or with $run_dir or MPI\n"
        "           ranks, which this projection does not cover): docs/frontier.md\n");
  }
  if (p.peak_bytes > static_cast<double>(st.memory_budget)) spill_need(out, f, st);
  projection_note(out);
}

// Each of the job's shards of units of end pairs (unit k to shard k mod N), at its cores per
// shard: the whole job's CPU (measured, or projected at the calibration's use of its threads)
// shared out by units, at the mean of the units.
void shards(Report& out, const FrontierEstimate& f, const FrontierStatistics& st) {
  const CountResult& r = f.r;
  const int units = st.sweeps_planned, finished = st.sweeps_finished;
  const int count = f.shard_count, cores = f.cores_per_shard;
  const double wall = r.complete ? r.seconds : f.p.seconds;
  const double use = r.seconds > 0 ? r.cpu_seconds / r.seconds : 1.0;  // threads kept busy
  const double cpu = wall * use;
  const double per_unit = cpu / std::max(units, 1);
  const int most = (units + count - 1) / count;
  say(out,
      "shards     %d x %d cores: at most %d units each (unit k to shard k mod %d), ~%.3g "
      "CPU-seconds a unit on average (units differ several times over in cost; one shard a "
      "unit, a few at a time, evens them out: docs/cluster.md)\n",
      count, cores, most, count, per_unit);
  const double shard_wall = per_unit * most / cores;
  std::string shard_time = "under 1 s";
  if (shard_wall >= 1) shard_time = std::string(1, '~').append(human_duration(shard_wall));
  say(out,
      "wall       %s for a shard of %d units at %d cores, if they scale as %d do here; ask "
      "sbatch --time for about twice that\n",
      shard_time.c_str(), most, cores, r.threads);
  say(out,
      "cost       ~%.3g core-hours in all: the CPU of the whole job (the time above is one "
      "count's\n"
      "           wall here, where the calibration kept %.1f of its %d threads busy)\n",
      cpu / 3600.0, use, r.threads);
  if (!r.complete && finished < 2) {
    // The first steps of a unit cost more a class than the rest, and one unit is no mean.
    say(out,
        "note       %d of the units finished during the calibration, so their mean is projected\n"
        "           from the steps of few (7x7 against its count: from 2 s, none finished, 3.5x\n"
        "           the CPU; from 6 s, one, 1.15x; from 12 s, two, 1.37x): a longer $calibrate\n"
        "           finishes more\n",
        finished);
  }
}

// One board of a row, as its own estimate sized it: the line under "boards", and its JSON.
std::string row_board_line(const FrontierEstimate& part, bool across, int rows) {
  const FrontierRequest& q = part.plan.request;
  std::string text = q.shape.name();
  if (across) {
    text += q.shape.cols > rows
                ? format(" (the sweep across the rows, lengths %d to %d)", rows, q.shape.cols)
                : std::string(" (the sweep across the rows)");
  }
  const double seconds = part.seconds();
  if (part.interrupted) return text + ": interrupted";
  if (part.r.complete) {
    text += format(": counted in %.3g s", seconds);
  } else if (seconds < 0) {
    text += ": not projected (no class expanded: give a longer $calibrate)";
  } else {
    text += format(": ~%s projected", human_duration(seconds).c_str());
  }
  return text + format(", %s classes at the peak (%s)",
                       estimate_figure(part.peak_classes()).c_str(),
                       gib(part.peak_bytes()).c_str());
}

nlohmann::json row_board_json(const FrontierEstimate& part, bool across) {
  return {{"board", part.plan.request.shape.name()},
          {"across", across},
          {"exact", part.r.complete},
          {"calibrated_in_two_parts", part.p.two_parts},
          {"seconds", part.seconds()},
          {"peak_classes", part.peak_classes()},
          {"peak_class_bytes", part.peak_bytes()},
          {"stopped_at_memory_budget", part.at_budget}};
}

// A row: each board its sweeps cost about as much as, estimated alone, and their sum.
Report row_report(const FrontierEstimate& f) {
  const FrontierRequest& q = f.plan.request;
  Report out;
  if (f.interrupted) out.outcome = Report::Outcome::stopped;
  const double seconds = f.seconds();
  nlohmann::json boards = nlohmann::json::array();
  for (std::size_t i = 0; i < f.parts.size(); ++i) {
    boards.push_back(row_board_json(f.parts[i], f.across && i + 1 == f.parts.size()));
  }
  nlohmann::json j{{"board", q.shape.name()},
                   {"method", "frontier"},
                   {"method_reason", f.choice.why},
                   {"all_starts", true},
                   {"total_only", q.total_only},
                   {"closed_only", q.closed},
                   {"every_length", true},
                   {"calibrate", f.calibrate},
                   {"seconds", seconds},
                   {"peak_classes", f.peak_classes()},
                   {"peak_class_bytes", f.peak_bytes()},
                   {"interrupted", f.interrupted},
                   {"boards", boards},
                   {"plan", plan_json(f)}};
  out.json = j.dump();
  say(out, "board      %d x n for n = 1 to %d, %s, every length\n", q.shape.rows, q.shape.cols,
      q.closed ? "closed tours" : "open tours over all starts");
  say(out,
      "method     frontier (%s); sized by the boards its sweeps\n"
      "           cost about as much as, each estimated alone from a %s count\n",
      f.choice.why.c_str(), calibration_length(f.calibrate).c_str());
  for (const std::string& line : describe(f.plan)) out.lines.push_back(line);
  std::string text = "boards     ";
  for (std::size_t i = 0; i < f.parts.size(); ++i) {
    if (i > 0) text += "\n           ";
    text += row_board_line(f.parts[i], f.across && i + 1 == f.parts.size(), q.shape.rows);
  }
  if (f.parts.empty()) text += "none to sweep: with one or two rows no length has a tour";
  out.lines.push_back(text);
  if (f.interrupted) {
    say(out, "stopped    interrupted by a signal: nothing projected\n");
    return out;
  }
  if (seconds < 0) {
    say(out, "time       not projected: a board expanded no class (give a longer $calibrate)\n");
    return out;
  }
  say(out, "time       ~%s for knightstour count with the same options%s\n",
      human_duration(seconds).c_str(),
      f.across ? "\n           (a sweep across the rows measured 0.92x to 1.32x the CPU of its "
                 "longest board\n           alone: docs/rows.md)"
               : "");
  const FrontierEstimate* widest = nullptr;
  for (const FrontierEstimate& part : f.parts) {
    if (widest == nullptr || part.peak_bytes() > widest->peak_bytes()) widest = &part;
  }
  if (widest != nullptr && !widest->r.complete) {
    const auto& st = std::get<FrontierStatistics>(widest->r.statistics);
    if (widest->p.peak_bytes > static_cast<double>(st.memory_budget)) spill_need(out, *widest, st);
  }
  if (q.modulus != 0) {
    say(out,
        "residues   this is one of %d residue units (count $residue_unit 0 to %d, each with its "
        "$run_dir;\n           merge them), each about as long and as large as this one: ~%s "
        "and a widest\n           step of ~%s a unit, ~%s in all\n",
        f.residue_units, f.residue_units - 1, human_duration(seconds).c_str(),
        gib(f.peak_bytes()).c_str(), human_duration(seconds * f.residue_units).c_str());
  }
  const bool projected = std::any_of(f.parts.begin(), f.parts.end(),
                                     [](const FrontierEstimate& part) { return !part.r.complete; });
  if (projected) projection_note(out);
  return out;
}

Report frontier_report(const FrontierEstimate& f) {
  if (f.row) return row_report(f);
  const CountResult& r = f.r;
  const Projection& p = f.p;
  const auto& st = std::get<FrontierStatistics>(r.statistics);
  Report out;
  out.json = frontier_json(f);
  if (f.interrupted) out.outcome = Report::Outcome::stopped;
  what_is_sized(out, f);
  if (r.complete) {
    exact(out, r, st);
  } else {
    projection(out, f, st);
  }
  // Figures of a whole count: measured, or projected.
  const bool sized = !f.interrupted && (r.complete || p.seconds > 0);
  if (f.residue_units > 0 && sized) {
    // Its job: its units, each about as long and as large as this one (the same classes, one
    // 64-bit word a count).
    say(out,
        "residues   this is one of %d residue units (count $residue_unit 0 to %d, each with its "
        "$run_dir; merge them): ~%s in all, each unit about as long and as large as this one\n",
        f.residue_units, f.residue_units - 1,
        human_duration(f.seconds() * f.residue_units).c_str());
  }
  if (f.cores_per_shard > 0 && sized) shards(out, f, st);
  return out;
}

std::string walks_json(const WalkEstimate& w) {
  const Request& job = w.job;
  const PlanEstimate& e = w.e;
  nlohmann::json j{{"board", job.board.name()},
                   {"method", "dfs"},
                   {"method_reason", w.choice.why},
                   {"all_starts", job.all_starts},
                   {"closed_only", job.mode.closed},
                   {"split_depth", w.split_depth},
                   {"prefixes", e.prefixes},
                   {"searches", e.searches},
                   {"walks", e.walks},
                   {"nodes", e.searched.nodes},
                   {"nodes_error", e.searched.nodes_error()},
                   {"tours", e.tours},
                   {"tours_error", std::sqrt(e.tours_var)},
                   {"threads", w.threads},
                   {"nodes_per_second", w.nodes_per_second},
                   {"seconds", w.seconds},
                   {"interrupted", e.interrupted}};
  if (!job.all_starts) j["start"] = square_name(job.board, job.prefix.front());
  return j.dump();
}

// Every shard at its cores, from its own walks and this machine's speed per core (cluster
// cores assumed as fast).
void shard_cost(Report& out, const WalkEstimate& w) {
  const double per_core = w.nodes_per_second / w.threads;
  const double rate = per_core * w.cores_per_shard;  // nodes/s of one shard
  double total = 0, variance = 0;  // of the sum: the shards' errors are independent
  for (std::size_t i = 0; i < w.shard_nodes.size(); ++i) {
    total += w.shard_nodes[i];
    variance += w.shard_errors[i] * w.shard_errors[i];
  }
  const double mean = total / static_cast<double>(w.shard_nodes.size());
  const auto largest_shard = static_cast<std::size_t>(
      std::max_element(w.shard_nodes.begin(), w.shard_nodes.end()) - w.shard_nodes.begin());
  const double largest = w.shard_nodes[largest_shard];
  say(out,
      "shards     %zu x %d cores: ~%s nodes each on average, the largest (shard %zu) "
      "~%s (standard error %s), %.2fx the mean\n",
      w.shard_nodes.size(), w.cores_per_shard, estimate_figure(mean).c_str(), largest_shard,
      estimate_figure(largest).c_str(), estimate_figure(w.shard_errors[largest_shard]).c_str(),
      mean > 0 ? largest / mean : 0.0);
  say(out,
      "wall       ~%s for the largest shard at %s nodes/s per core (this machine's); "
      "ask sbatch --time for about twice that\n",
      human_duration(largest / rate).c_str(),
      with_commas(static_cast<std::uint64_t>(per_core)).c_str());
  const double hours = total / per_core / 3600;
  const double hours_error = std::sqrt(variance) / per_core / 3600;
  say(out,
      "cost       ~%.3g core-hours in all (standard error %.2g), whatever the cores per "
      "shard, if the cores scale as they do here\n",
      hours, hours_error);
}

Report walks_report(const WalkEstimate& w) {
  const Request& job = w.job;
  const PlanEstimate& e = w.e;
  Report out;
  out.json = walks_json(w);
  if (e.interrupted) out.outcome = Report::Outcome::stopped;
  std::string what;
  if (job.all_starts) {
    what = "all starts";
  } else if (job.prefix.size() == 1) {
    what = "start " + square_name(job.board, job.prefix.front());
  } else {
    what = "prefix " + path_name(job.board, job.prefix.data(), static_cast<int>(job.prefix.size()));
  }
  say(out, "board      %s, %s, directed %s tours (estimated from %s random walks)\n",
      job.board.name().c_str(), what.c_str(), job.mode.closed ? "closed" : "open",
      with_commas(e.walks).c_str());
  say(out, "method     dfs (%s): the enumerator's search tree, sampled\n", w.choice.why.c_str());
  say(out, "tours      ~%s  (standard error %s)\n", estimate_figure(e.tours).c_str(),
      estimate_figure(std::sqrt(e.tours_var)).c_str());
  say(out, "nodes      ~%s to search  (standard error %s)\n",
      estimate_figure(e.searched.nodes).c_str(), estimate_figure(e.searched.nodes_error()).c_str());
  if (e.searches < e.prefixes) {
    say(out, "prefixes   %s at split depth %d, %s searched (the rest are mirror images)\n",
        with_commas(e.prefixes).c_str(), w.split_depth, with_commas(e.searches).c_str());
  } else {
    say(out, "prefixes   %s at split depth %d, all searched\n", with_commas(e.prefixes).c_str(),
        w.split_depth);
  }
  if (e.interrupted) {
    say(out,
        "stopped    interrupted by a signal after %s of %s walks: a coarser estimate, "
        "no speed measured\n",
        with_commas(e.walks).c_str(), with_commas(w.walks_asked).c_str());
  }
  if (w.whole) {
    say(out, "exact      the whole count ran during calibration: %s tours, %s nodes, %.3f s\n",
        with_commas(w.whole->tours).c_str(), with_commas(w.whole->nodes).c_str(), w.whole->seconds);
  } else if (w.seconds >= 0) {
    say(out, "speed      %s nodes/s on %d threads (measured for %.1f s)\n",
        with_commas(static_cast<std::uint64_t>(w.nodes_per_second)).c_str(), w.threads,
        w.calibrate);
    say(out, "time       ~%s for knightstour count with the same options\n",
        human_duration(w.seconds).c_str());
  }
  if (w.cores_per_shard > 0 && !w.shard_nodes.empty()) {
    shard_cost(out, w);
  } else if (w.cores_per_shard > 0) {
    say(out, "shards     not estimated: the speed could not be measured\n");
  }
  say(out,
      "note       Knuth's estimator is unbiased but heavy-tailed: the true values can lie several\n"
      "           standard errors away; more $walks narrow it.\n");
  return out;
}

}  // namespace

Report report_of(const Estimate& estimate) {
  if (const auto* w = std::get_if<WalkEstimate>(&estimate)) return walks_report(*w);
  return frontier_report(std::get<FrontierEstimate>(estimate));
}

}  // namespace knightstour
