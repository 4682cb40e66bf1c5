#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"
#include "knightstour/report/reports.hpp"
#include "knightstour/report/words.hpp"
#include "knightstour/run/run_layout.hpp"
#include "report_text.hpp"

namespace knightstour {

namespace {

using report_text::json_count;
using report_text::json_counts;
using report_text::put;

std::string gib(std::uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return b;
}

// The bytes a class of the largest generation took, at rest between steps and during the
// widest step; nothing before a class was held.
struct ClassBytes {
  double at_rest = 0;
  double during_step = 0;
};

std::optional<ClassBytes> bytes_per_class(const FrontierStatistics& st) {
  if (st.peak_classes == 0) return std::nullopt;
  const auto classes = static_cast<double>(st.peak_classes);
  return ClassBytes{static_cast<double>(st.peak_rest_bytes) / classes,
                    static_cast<double>(st.peak_bytes) / classes};
}

std::string each_cycle_counted(const CountResult& r) {
  return r.all_starts
             ? "2 x " + std::to_string(r.shape.squares()) + " times (every start, both directions)"
             : std::string("twice (both directions)");
}

std::string modulo(const CountResult& r) { return residue_mark(r.modulus); }

std::string method_line(const CountResult& r) {
  if (r.method == Method::frontier) {
    return "frontier (" + r.why +
           "): dynamic programming over classes of partial paths; no tour is visited";
  }
  return "dfs (" + r.why + "): the enumerator visits every tour";
}

// What a stopped count with a run directory kept to resume.
void put_kept(std::string& t, const CountResult& r, const FrontierStatistics& st) {
  const std::string finished = std::to_string(st.sweeps_finished) +
                               (st.sweeps_finished == 1 ? " sweep" : " sweeps") + " finished";
  if (st.stopped_sweep < 0) {
    put(t, "kept       %s in %s\n", finished.c_str(), r.run_dir->c_str());
  } else if (st.kept_step) {
    put(t, "kept       %s, and sweep %d at step %d of %lld in %s/%s\n", finished.c_str(),
        st.stopped_sweep, *st.kept_step, static_cast<long long>(st.stopped_sweep_steps),
        r.run_dir->c_str(), run_layout::checkpoint_name(st.stopped_sweep).c_str());
  } else {
    put(t, "kept       %s in %s; sweep %d stopped in its first step and starts again\n",
        finished.c_str(), r.run_dir->c_str(), st.stopped_sweep);
  }
}

void put_status(std::string& t, const CountResult& r) {
  if (r.complete) return;
  if (r.method == Method::frontier) {
    const auto& st = std::get<FrontierStatistics>(r.statistics);
    put(t,
        "status     INCOMPLETE: %s with %d of %d sweeps finished; no count (a sweep "
        "counts only when it reaches the end).\n",
        describe(r.stop_reason).c_str(), st.sweeps_finished, st.sweeps_planned);
    if (r.stop_reason == StopReason::memory && !st.spill_off.empty()) {
      put(t,
          "           Spilling was off (%s):\n"
          "           give $spill_dir DIR, a $TMPDIR that can be written, or more $memory_budget "
          "(now %s).\n",
          st.spill_off.c_str(), size_text(st.memory_budget).c_str());
    } else if (r.stop_reason == StopReason::memory) {
      const std::string budget =
          size_text(st.memory_budget) +
          (st.budget_asked ? ", $memory_budget" : ", half of the memory available");
      put(t,
          st.spills ? "           The budget (%s) is too small for one part of a "
                      "step even when spilling: give more $memory_budget.\n"
                    : "           Give more $memory_budget (now %s), or leave out $spill_dir "
                      "none so that classes past it go to disk.\n",
          budget.c_str());
    } else if (r.run_dir) {
      const std::string launcher =
          st.ranks > 1 ? "mpirun -np " + std::to_string(st.ranks) + " " : std::string();
      put_kept(t, r, st);
      put(t, "           Continue with: %sknightstour count $run_dir %s $resume\n",
          launcher.c_str(), r.run_dir->c_str());
    } else if (st.grid_method == GridMethod::backward_pass) {
      // A run directory's job takes pinned tails instead: the pass keeps nothing on disk.
      put(t,
          "           The work is lost: with $run_dir DIR it is kept at checkpoints "
          "and $resume continues it\n"
          "           (the grid then comes from one pinned sweep per class of start squares, "
          "which checkpoint; the pass back does not).\n");
    } else {
      put(t,
          "           The work is lost: with $run_dir DIR it is kept at checkpoints "
          "and $resume continues it.\n");
    }
    return;
  }
  const auto& st = std::get<DfsStatistics>(r.statistics);
  put(t, "status     INCOMPLETE: %s; %zu of %zu prefixes finished.\n",
      describe(r.stop_reason).c_str(), st.prefixes_done, st.shard_prefixes);
  put(t, "           Every count below is a LOWER BOUND (>=), from finished prefixes only.\n");
  if (r.run_dir) put(t, "           Resume with the same command plus $resume.\n");
  if (r.stop_reason == StopReason::tour_cap) {
    put(t,
        "found      %s tours this session before the cap stopped it (mirror images "
        "included); the counts below hold only those of finished prefixes\n",
        with_commas(st.tours_found).c_str());
  }
}

// --every-length: a line a length, the whole board's last (it is also the totals below), in
// the three counts' names (docs/formats.md, "Three counts"): directed tours over all starts,
// undirected tours (open rows), closed cycles.
void put_by_length(std::string& t, const CountResult& r) {
  std::size_t wide = 16;
  for (const LengthCounts& c : r.by_length) {
    wide = std::max({wide, c.tours.with_commas().size(), c.cycles.with_commas().size()});
  }
  const int w = static_cast<int>(wide);
  put(t, "\n%s tours of %d x n over all starts, by length n%s:\n", r.closed ? "closed" : "open",
      r.shape.rows, modulo(r).c_str());
  put(t, "%6s  %*s", "n", w, "directed tours");
  if (!r.closed) put(t, "  %*s", w, "undirected tours");
  put(t, "  %*s\n", w, "closed cycles");
  for (const LengthCounts& c : r.by_length) {
    put(t, "%6d  %*s", c.length, w, c.tours.with_commas().c_str());
    if (!r.closed) {
      const std::int64_t squares = std::int64_t{r.shape.rows} * c.length;
      put(t, "  %*s", w, undirected_tours(c.tours, squares, r.modulus).with_commas().c_str());
    }
    put(t, "  %*s\n", w, c.cycles.with_commas().c_str());
  }
  put(t, "\n");
}

void put_counts(std::string& t, const CountResult& r) {
  if (r.counts == CountResult::Counts::none) return;
  const std::string ge = r.counts == CountResult::Counts::lower_bound ? ">= " : "";
  if (r.all_starts && !r.tours_by_start.empty()) {
    std::vector<std::string> cells;
    for (const auto& v : r.tours_by_start) cells.push_back(v.with_commas());
    put(t, "\n%s tours from each start square%s%s:\n%s\n", r.closed ? "closed" : "open",
        r.sharded ? " (this shard's units only)" : "", modulo(r).c_str(),
        board_grid(r.shape, cells).c_str());
  }
  if (!r.by_length.empty()) put_by_length(t, r);
  if (r.modulus != 0) {
    put(t, "modulus    %s: every count below is its residue modulo this prime, not the count\n",
        std::to_string(r.modulus).c_str());
  }
  if (r.sharded) {
    put(t,
        "share      the counts below are this shard's units' share; `knightstour merge` of "
        "every shard's run directory gives the job's\n");
  }
  put(t,
      "tours      %s%s directed tours%s (a tour and its reverse from the other end count "
      "separately)\n",
      ge.c_str(), r.tours.with_commas().c_str(), modulo(r).c_str());
  if (r.tours_undirected) {
    put(t, "undirected %s undirected tours%s: each path once, whichever end it is read from\n",
        r.tours_undirected->with_commas().c_str(), modulo(r).c_str());
  }
  if (r.closed) {
    if (r.closed_cycles) {
      put(t, "cycles     %s closed cycles%s: each is counted %s in the tours above\n",
          r.closed_cycles->with_commas().c_str(), modulo(r).c_str(), each_cycle_counted(r).c_str());
    }
    return;
  }
  std::string line = ge + r.closed_tours.with_commas() + modulo(r) +
                     " of them are closed (end a knight move from the start)";
  if (r.closed_cycles) {
    line += ": " + r.closed_cycles->with_commas() + " closed cycles" + modulo(r) +
            ", each counted " + each_cycle_counted(r);
  }
  put(t, "closed     %s\n", line.c_str());
}

std::string square_of(const CountResult& r, std::int64_t s) {
  return square_name(static_cast<int>(s / r.shape.cols), static_cast<int>(s % r.shape.cols));
}

// Essentially different tours (count --up-to-symmetry).
void put_classes(std::string& t, const CountResult& r) {
  if (r.classes_asked && !r.classes) {
    put(t, "symmetry   not counted: classes need every tour, and the run stopped early\n");
  }
  if (!r.classes) return;
  const SymmetryClasses& c = *r.classes;
  const std::string which = r.all_starts
                                ? "the board's " + std::to_string(c.symmetries) + " symmetries"
                                : "the " + std::to_string(c.symmetries) + " symmetr" +
                                      (c.symmetries == 1 ? "y" : "ies") + " of the board keeping " +
                                      square_of(r, r.prefix.front()) + " in place";
  put(t, "symmetry   %s tours up to %s (no tour is its own image, so each class has %d)\n",
      with_commas(c.tours).c_str(), which.c_str(), c.symmetries);
  put(t,
      "           %s also up to reversal (a tour read from its other end); %s tour%s %s their "
      "own image read backwards, in a class half as big\n",
      with_commas(c.tours_with_reversal).c_str(), with_commas(c.self_reverse).c_str(),
      c.self_reverse == 1 ? "" : "s", c.self_reverse == 1 ? "is" : "are");
  if (c.cycles) {
    put(t,
        "           %s closed cycles up to the board's %d symmetries (a symmetric cycle "
        "is one class)\n",
        with_commas(*c.cycles).c_str(), c.board_symmetries);
  }
}

// The run's own time when it is not this session's: over several sessions, or read back
// finished. "" otherwise.
std::string run_time_note(const CountResult& r) {
  if (!r.run_time) return "";
  const CountResult::RunTime& t = *r.run_time;
  if (t.sessions <= 1 && r.seconds >= 0.5 * t.seconds) return "";
  char b[160];
  std::snprintf(b, sizeof b, "; the run: %.1f s over %s (%.1f CPU-seconds)", t.seconds,
                how_many(static_cast<std::uint64_t>(t.sessions), "session").c_str(), t.cpu_seconds);
  return b;
}

void put_dfs(std::string& t, const CountResult& r, const DfsStatistics& st) {
  if (r.run_dir) put(t, "run dir    %s\n", r.run_dir->c_str());
  put(t, "nodes      %s searched\n", with_commas(st.nodes).c_str());
  put(t, "threads    %d; %zu prefixes at split depth %d", r.threads, st.shard_prefixes,
      st.split_depth);
  if (st.shard.count > 1) {
    put(t, " (shard %d of %d; the plan has %zu)", st.shard.index, st.shard.count, st.plan_prefixes);
  }
  put(t, ", %zu searched", st.searches);
  if (st.prefixes_before > 0) put(t, ", %zu done by earlier sessions", st.prefixes_before);
  if (st.symmetry && st.algorithm == Algorithm::pruned &&
      st.searches + st.prefixes_before < st.shard_prefixes) {
    put(t, ", the rest derived by symmetry");
  }
  put(t, "\n");
  const double secs = std::max(r.seconds, 1e-9);
  put(t, "time       %.3f s (%s nodes/s, %.1f CPU-seconds)%s\n", r.seconds,
      with_commas(static_cast<std::uint64_t>(static_cast<double>(st.nodes) / secs)).c_str(),
      r.cpu_seconds, run_time_note(r).c_str());
}

void put_frontier(std::string& t, const CountResult& r, const FrontierStatistics& st) {
  if (r.run_dir) {
    std::string line = r.run_dir->string();
    if (st.sweeps_resumed > 0) {
      line += " (" + std::to_string(st.sweeps_resumed) + " of " +
              std::to_string(st.sweeps_planned) + " sweeps taken up from it)";
    }
    put(t, "run dir    %s\n", line.c_str());
  }
  if (st.sweeps == 0) return;  // a finished run read back: no work this session
  put(t, "classes    %s at the peak (sweep %d squares wide), %s expanded; %d-bit counts\n",
      with_commas(st.peak_classes).c_str(), st.width, with_commas(st.expanded).c_str(),
      st.count_bits());
  put(t, "memory     %s of classes at the peak (budget %s)", gib(st.peak_bytes).c_str(),
      size_text(st.memory_budget).c_str());
  if (const auto bytes = bytes_per_class(st)) {
    put(t, ", %.1f bytes a class between steps and %.0f during the widest", bytes->at_rest,
        bytes->during_step);
  }
  if (st.peak_anonymous_bytes > 0) {
    // "at most 0.00 GiB" of a small run read as nothing held at all.
    const bool small = st.peak_anonymous_bytes < std::uint64_t{5} << 20;
    put(t, "; %s held %s (anonymous memory, sampled every %.1f s)",
        st.ranks > 1 ? "the largest rank" : "the process",
        small ? "under 0.01 GiB" : ("at most " + gib(st.peak_anonymous_bytes)).c_str(),
        st.anonymous_sample_seconds);
  }
  put(t, "\n");
  if (!r.complete && st.classes_left > 0) {
    put(t,
        "outlook    ~%s classes still to expand; the largest generation ~%s classes (a rough "
        "projection, as estimate makes it)\n",
        estimate_figure(st.classes_left).c_str(),
        estimate_figure(st.projected_peak_classes).c_str());
  }
  if (st.spilled_bytes > 0) {
    const std::string ranges = st.max_passes > 1
                                   ? "up to " + std::to_string(st.max_passes) + " ranges a step"
                                   : std::string("one range a step");
    put(t, "disk       %s of classes and successors spilled; %s\n", gib(st.spilled_bytes).c_str(),
        ranges.c_str());
  }
  if (const StepsByStrategy& by = st.steps_by_strategy; by.sliced() > 0) {
    put(t,
        "slices     %s built a slice of the generation at a time to fit the budget (%d setting "
        "the current generation aside on disk; %d built in ranges after running out)\n",
        how_many(static_cast<std::uint64_t>(by.sliced()), "step").c_str(),
        by[StepStrategy::sliced_setting_aside], by[StepStrategy::sliced_then_in_ranges]);
  }
  if (st.ranks > 1) {
    put(t, "ranks      %d MPI processes; %s of successors sent between them\n", st.ranks,
        gib(st.exchanged_bytes).c_str());
  }
  std::string sweeps_note;
  if (st.grid_method == GridMethod::backward_pass) {
    sweeps_note = " (the last a pass back over the one before: the tours from each square)";
  } else if (st.grid_method == GridMethod::end_pairs) {
    sweeps_note = " of " + how_many(static_cast<std::uint64_t>(st.sweeps_planned), "unit") +
                  " of end pairs (one sweep per class of start and end squares)";
    if (st.shard.count > 1) {
      sweeps_note +=
          ", shard " + std::to_string(st.shard.index) + " of " + std::to_string(st.shard.count);
    }
  }
  put(t, "threads    %d%s; %s%s\n", r.threads, st.ranks > 1 ? " per rank" : "",
      how_many(static_cast<std::uint64_t>(st.sweeps), "sweep").c_str(), sweeps_note.c_str());
  put(t, "time       %.3f s (%.1f CPU-seconds", r.seconds, r.cpu_seconds);
  if (st.expanded > 0) {
    put(t, ", %.0f ns of CPU per class expanded",
        1e9 * r.cpu_seconds / static_cast<double>(st.expanded));
  }
  put(t, ")%s\n", run_time_note(r).c_str());
}

void put_text(std::string& t, const CountResult& r) {
  if (r.end) {
    put(t, "board      %s, start %s, end %s, directed open tours\n", r.shape.name().c_str(),
        square_of(r, r.prefix.front()).c_str(), square_of(r, *r.end).c_str());
  } else {
    put(t, "board      %s, %s\n", r.shape.name().c_str(),
        what_is_counted(r.shape, r.all_starts, r.prefix, r.closed, r.total_only).c_str());
  }
  put(t, "method     %s\n", method_line(r).c_str());
  put_status(t, r);
  put_counts(t, r);
  put_classes(t, r);
  std::visit(
      [&](const auto& st) {
        if constexpr (std::is_same_v<std::decay_t<decltype(st)>, DfsStatistics>) {
          put_dfs(t, r, st);
        } else {
          put_frontier(t, r, st);
        }
      },
      r.statistics);
  if (r.complete) put(t, "status     complete\n");
}

// What was asked and where the count got to.
void add_job(nlohmann::json& j, const CountResult& r) {
  using nlohmann::json;
  j["command"] = "count";
  j["method"] = to_string(r.method);
  j["method_reason"] = r.why;
  j["board"] = r.shape.name();
  j["rows"] = r.shape.rows;
  j["cols"] = r.shape.cols;
  j["all_starts"] = r.all_starts;
  j["total_only"] = r.total_only;
  j["start"] = r.all_starts ? json(nullptr) : json(square_of(r, r.prefix.front()));
  json prefix = json::array();
  for (auto s : r.prefix) prefix.push_back(square_of(r, s));
  j["prefix"] = r.all_starts ? json(nullptr) : prefix;
  j["end"] = r.end ? json(square_of(r, *r.end)) : json(nullptr);
  j["closed_only"] = r.closed;
  j["status"] = r.complete ? "complete" : "incomplete";
  j["lower_bound"] = r.counts == CountResult::Counts::lower_bound;
  j["stop_reason"] = r.complete ? json(nullptr) : json(token(r.stop_reason));
  j["stop_reason_text"] = r.complete ? json(nullptr) : json(describe(r.stop_reason));
}

// The counts, the symmetry classes and the grids (nothing where the count has none).
void add_counts(nlohmann::json& j, const CountResult& r) {
  using nlohmann::json;
  const bool counted = r.counts != CountResult::Counts::none;
  // Not null: every count of this object is a residue modulo this prime (count --modulus).
  j["modulus"] = r.modulus != 0 ? json(r.modulus) : json(nullptr);
  j["tours_directed"] = counted ? json_count(r.tours) : json(nullptr);
  j["closed_tours_directed"] = counted ? json_count(r.closed_tours) : json(nullptr);
  // The same two under their names before the three counts were named (docs/formats.md):
  // kept while the version is 0.1.
  j["tours"] = j["tours_directed"];
  j["closed_tours"] = j["closed_tours_directed"];
  j["closed_cycles"] = r.closed_cycles ? json_count(*r.closed_cycles) : json(nullptr);
  j["tours_undirected"] = r.tours_undirected ? json_count(*r.tours_undirected) : json(nullptr);
  const SymmetryClasses* c = r.classes ? &*r.classes : nullptr;
  j["symmetries"] = c ? json(c->symmetries) : json(nullptr);
  j["tours_up_to_symmetry"] = c ? json(c->tours) : json(nullptr);
  j["tours_up_to_symmetry_and_reversal"] = c ? json(c->tours_with_reversal) : json(nullptr);
  j["self_reverse_tours"] = c ? json(c->self_reverse) : json(nullptr);
  j["closed_cycles_up_to_symmetry"] = c && c->cycles ? json(*c->cycles) : json(nullptr);
  const bool grid = counted && r.all_starts && !r.tours_by_start.empty();
  j["tours_by_start"] = grid ? json_counts(r.tours_by_start) : json(nullptr);
  j["closed_by_start"] = grid ? json_counts(r.closed_by_start) : json(nullptr);
  j["tours_by_end"] =
      counted && !r.tours_by_end.empty() ? json_counts(r.tours_by_end) : json(nullptr);
  json table = nullptr;  // by end pairs: one row a start square, one column an end square
  if (counted && !r.tours_by_start_end.empty()) {
    const auto n = static_cast<std::size_t>(r.shape.squares());
    table = json::array();
    for (std::size_t s = 0; s < n; ++s) {
      table.push_back(json_counts(std::vector<BigCount>(
          r.tours_by_start_end.begin() + static_cast<std::ptrdiff_t>(s * n),
          r.tours_by_start_end.begin() + static_cast<std::ptrdiff_t>((s + 1) * n))));
    }
  }
  j["tours_by_start_end"] = table;
  json rows = nullptr;  // --every-length: an object a length
  if (counted && !r.by_length.empty()) {
    rows = json::array();
    for (const LengthCounts& row : r.by_length) {
      const std::int64_t squares = std::int64_t{r.shape.rows} * row.length;
      json entry = {
          {"length", row.length},
          {"tours_directed", json_count(row.tours)},
          {"tours_undirected",
           r.closed ? json(nullptr) : json_count(undirected_tours(row.tours, squares, r.modulus))},
          {"closed_tours_directed", json_count(row.closed_tours)},
          {"closed_cycles", json_count(row.cycles)}};
      entry["tours"] = entry["tours_directed"];  // aliases, as above
      entry["closed_tours"] = entry["closed_tours_directed"];
      rows.push_back(entry);
    }
  }
  j["by_length"] = rows;
  std::vector<std::string> squares;
  if (r.shape.squares() <= 4096) {
    for (std::int64_t s = 0; s < r.shape.squares(); ++s) squares.push_back(square_of(r, s));
  }
  j["squares"] = squares;
  // The same counts by start as an object keyed by square name, for a reader who looks one up.
  json by_name = nullptr;
  if (grid && squares.size() == r.tours_by_start.size()) {
    by_name = json::object();
    for (std::size_t s = 0; s < squares.size(); ++s)
      by_name[squares[s]] = json_count(r.tours_by_start[s]);
  }
  j["tours_by_start_square"] = by_name;
}

void add_dfs_statistics(nlohmann::json& j, const DfsStatistics& d) {
  j["algorithm"] = to_string(d.algorithm);
  j["nodes"] = d.nodes;
  j["split_depth"] = d.split_depth;
  j["prefixes"] = d.shard_prefixes;
  j["prefixes_done"] = d.prefixes_done;
  j["prefixes_done_before"] = d.prefixes_before;
  j["prefixes_in_plan"] = d.plan_prefixes;
  j["searches"] = d.searches;
  j["tours_found"] = d.tours_found;
  j["shard"] = {{"index", d.shard.index}, {"count", d.shard.count}};
}

void add_frontier_statistics(nlohmann::json& j, const CountResult& r, const FrontierStatistics& f) {
  using nlohmann::json;
  j["sweep_width"] = f.width;
  j["sweeps"] = f.sweeps;
  j["sweeps_planned"] = f.sweeps_planned;
  j["sweeps_finished"] = f.sweeps_finished;
  j["sweeps_resumed"] = f.sweeps_resumed;
  j["grid_method"] = f.grid_method ? json(grid_method_name(*f.grid_method)) : json(nullptr);
  j["shard"] = {{"index", f.shard.index}, {"count", f.shard.count}};
  j["peak_classes"] = f.peak_classes;
  j["classes_expanded"] = f.expanded;
  j["peak_class_bytes"] = f.peak_bytes;
  if (const auto bytes = bytes_per_class(f)) {
    const auto tenths = [](double v) { return std::round(10.0 * v) / 10.0; };
    j["bytes_per_class"] = {{"at_rest", tenths(bytes->at_rest)},
                            {"during_step", tenths(bytes->during_step)}};
  } else {
    j["bytes_per_class"] = nullptr;
  }
  const StepBytes& w = f.widest_step;
  if (w.total() > 0) {
    j["widest_step_bytes"] = {{"current", w.current}, {"next", w.next},
                              {"partial", w.partial}, {"successors", w.successors},
                              {"tables", w.tables},   {"idle", w.idle},
                              {"other", w.other},     {"kept", w.kept}};
  } else {
    j["widest_step_bytes"] = nullptr;
  }
  j["peak_anonymous_bytes"] = f.peak_anonymous_bytes;
  j["spilled_bytes"] = f.spilled_bytes;
  j["max_passes"] = f.max_passes;
  const StepsByStrategy& by = f.steps_by_strategy;
  j["steps_sliced"] = {{"steps", by.sliced()},
                       {"set_aside", by[StepStrategy::sliced_setting_aside]},
                       {"given_up", by[StepStrategy::sliced_then_in_ranges]}};
  auto& by_strategy = j["steps_by_strategy"] = nlohmann::json::object();
  for (int s = 0; s < kStepStrategies; ++s) {
    const auto strategy = static_cast<StepStrategy>(s);
    by_strategy[step_strategy_name(strategy)] = by[strategy];
  }
  j["ranks"] = f.ranks;
  j["exchanged_bytes"] = f.exchanged_bytes;
  j["memory_budget"] = f.memory_budget;
  j["count_bits"] = f.count_bits();
  if (!f.bit_kernel.empty()) j["bit_kernel"] = f.bit_kernel;
  j["mirror_fold"] = f.mirror_fold;
  // What a stopped count with a run directory kept: the sweep that stopped and its step.
  if (!r.complete && r.run_dir && f.stopped_sweep >= 0) {
    j["kept"] = {{"sweep", f.stopped_sweep},
                 {"step", f.kept_step ? json(*f.kept_step) : json(nullptr)}};
  } else {
    j["kept"] = nullptr;
  }
  // A stopped count's projection of what is left (sweep_outlook.hpp), as estimate gives it.
  if (!r.complete && f.classes_left > 0) {
    j["outlook"] = {{"classes_left", f.classes_left},
                    {"projected_peak_classes", f.projected_peak_classes}};
  } else {
    j["outlook"] = nullptr;
  }
}

std::string count_json(const CountResult& r) {
  using nlohmann::json;
  json j;
  add_job(j, r);
  add_counts(j, r);
  j["threads"] = r.threads;
  j["seconds"] = r.seconds;
  j["cpu_seconds"] = r.cpu_seconds;
  j["run_dir"] = r.run_dir ? json(r.run_dir->string()) : json(nullptr);
  // Over every session of the run directory (this one's included), as its manifest says.
  j["run_seconds"] = r.run_time ? json(r.run_time->seconds) : json(nullptr);
  j["run_cpu_seconds"] = r.run_time ? json(r.run_time->cpu_seconds) : json(nullptr);
  j["sessions"] = r.run_time ? json(r.run_time->sessions) : json(nullptr);
  if (const auto* d = std::get_if<DfsStatistics>(&r.statistics)) {
    add_dfs_statistics(j, *d);
  } else {
    add_frontier_statistics(j, r, std::get<FrontierStatistics>(r.statistics));
  }
  return j.dump();
}

}  // namespace

Report report_of(const CountResult& result) {
  Report out;
  std::string text;
  put_text(text, result);
  out.lines = report_text::lines_of(text);
  out.json = count_json(result);
  if (!result.complete) out.outcome = Report::Outcome::stopped;
  return out;
}

}  // namespace knightstour
