#include "knightstour/frontier/frontier_job.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/process_memory.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/frontier/backward_pass.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour {

namespace {

// The images of (r, c) under the rectangle's symmetries (the square's eight, or four).
std::vector<std::int64_t> images(BoardShape shape, int r, int c) {
  const int R = shape.rows, C = shape.cols;
  std::vector<std::pair<int, int>> rc = {
      {r, c}, {R - 1 - r, c}, {r, C - 1 - c}, {R - 1 - r, C - 1 - c}};
  if (R == C) {
    for (int i = 0; i < 4; ++i)
      rc.push_back({rc[static_cast<std::size_t>(i)].second, rc[static_cast<std::size_t>(i)].first});
  }
  std::vector<std::int64_t> out;
  for (const auto& [rr, cc] : rc) out.push_back(std::int64_t{rr} * C + cc);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct SweepOutcome {
  FrontierResult result;
  bool ok() const { return result.complete; }
};

// Adds a run's figures to the report; a run that is a sweep's own (not a shared prefix's
// stretch) counts as a sweep.
void absorb(FrontierReport& report, const FrontierResult& r, bool is_sweep = true) {
  if (is_sweep) ++report.sweeps;
  report.peak_classes = std::max(report.peak_classes, r.peak_classes);
  report.peak_bytes = std::max(report.peak_bytes, r.peak_bytes);
  report.expanded += r.expanded;
  report.steps_seconds += r.steps_seconds;
  report.limbs = std::max(report.limbs, r.limbs);
  report.spilled_bytes += r.spilled_bytes;
  report.exchanged_bytes += r.exchanged_bytes;
  report.max_passes = std::max(report.max_passes, r.max_passes);
  if (!r.complete && report.stop_reason == StopReason::none) report.stop_reason = r.stop_reason;
  if (!r.complete && !r.paused) {
    const double whole = static_cast<double>(r.expanded) + r.outlook.classes_left;
    const int not_started = std::max(0, report.sweeps_planned - report.sweeps);
    report.stopped_outlook = r.outlook;
    report.classes_left = r.outlook.classes_left + not_started * whole;
    report.projected_peak_classes =
        std::max(static_cast<double>(report.peak_classes), r.outlook.peak_classes);
  }
}

std::string gib(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.2f" : "%.0f", value);
  return text;
}

// A step too large for memory is built in ranges of parts: first its generation is expanded
// once (pass 0), the successors of all but the first range into files, then the ranges are
// built one after another.
std::string ranges_figures(const SweepSnapshot& s) {
  if (s.passes <= 1) return "";
  if (s.pass == 0) return ", expanding into " + std::to_string(s.passes) + " ranges";
  return ", range " + std::to_string(s.pass) + "/" + std::to_string(s.passes);
}

// Over MPI ranks: the last finished step's exchange and its slowest rank (the one the others
// waited for; busy = its wall time less its time in collective calls).
std::string ranks_figures(const SweepSnapshot& s) {
  if (s.ranks_step < 0) return "";
  char text[160];
  std::snprintf(text, sizeof text,
                ", step %d sent %s GiB between ranks, rank %d slowest (busy %.2f s, least %.2f s)",
                s.ranks_step + 1, gib(s.step_exchanged_gib).c_str(), s.slowest_rank, s.slowest_busy,
                s.fastest_busy);
  return text;
}

// The whole job's progress, one line however many sweeps it takes. The time left is the
// running sweep's projection plus, for the sweeps not started, the mean time of the sweeps
// this session finished; before one has finished that mean is unknown, and so is the ETA
// (the sweeps of one job differ too much to guess from the first one's start).
class JobProgress {
 public:
  JobProgress(int planned, const std::string& board) : planned_(planned), board_(board) {}

  // A job whose plan changed (a backward pass that fell back to pinned tails).
  void replan(int planned) { planned_ = planned; }
  // From now until the job ends, the backward pass is what runs.
  void backward_pass(const BackwardProgress* pass) {
    pass_started_.store(elapsed());
    pass_ = pass;
  }

  void sweep_done(bool counted_here) {
    ++done_;
    if (counted_here) {
      ++finished_here_;
      finished_at_.store(elapsed());
    }
  }
  SweepWatch& watch() { return watch_; }

  std::string status() const {
    const double now = elapsed();
    const auto s = watch_.snapshot();
    std::string line;
    double left = -1;
    const int planned = planned_.load();
    if (const BackwardProgress* pass = pass_.load()) {
      const auto done = pass->classes_done.load();
      const auto total = pass->classes_total.load();
      line = board_ + " the pass back over the sweep, step " +
             std::to_string(pass->steps_done.load()) + " of " +
             std::to_string(pass->steps_total.load()) + " (tours from each square, " +
             std::to_string(done_.load()) + " of " + std::to_string(planned) + " sweeps done)";
      if (done > 0 && total >= done) {
        left = (now - pass_started_.load()) * static_cast<double>(total - done) /
               static_cast<double>(done);
      }
    } else if (!s) {
      // Between two sweeps (a prefix restored, a checkpoint written, or the job stopping): the
      // line still names the sweep that is next, as every other line of the job does.
      const int done = done_.load();
      line = board_ +
             (done < planned ? " sweep " + std::to_string(done + 1) + "/" + std::to_string(planned)
                             : " all sweeps") +
             " (" + std::to_string(done) + " of " + std::to_string(planned) + " done)";
    } else {
      // Most wanted first and last: a narrow terminal cuts the middle.
      line = board_ + " sweep " + std::to_string(std::min(done_.load() + 1, planned)) + "/" +
             std::to_string(planned) + ", step " + std::to_string(s->step + 1) + "/" +
             std::to_string(s->steps) + ranges_figures(*s) + ", " +
             human_count(static_cast<double>(s->classes)) + " classes in " + gib(s->budget_gib) +
             " GiB, process " +
             gib(static_cast<double>(anonymous_memory()) / (1024.0 * 1024 * 1024)) + " GiB" +
             (s->spilled_gib > 0 ? ", " + gib(s->spilled_gib) + " GiB spilled" : "") +
             ranks_figures(*s) + " (" + s->label + ", column " +
             std::to_string(s->step / s->width + 1) + " of " + std::to_string(s->steps / s->width) +
             ")";
      left = s->seconds_left;
    }
    const int not_started = std::max(0, planned - done_.load() - (s ? 1 : 0));
    if (left >= 0 && not_started > 0) {
      const int finished = finished_here_.load();
      left = finished > 0 ? left + not_started * finished_at_.load() / finished : -1;
    }
    line += ", elapsed " + human_duration(now) + ", ETA ";
    line += left < 0 ? "unknown" : std::string("~").append(human_duration(std::max(left, 1.0)));
    return line;
  }

  // Sweeps done and the running one's steps: the bar.
  double fraction() const {
    const auto s = watch_.snapshot();
    const double part = s && s->steps > 0 ? static_cast<double>(s->step) / s->steps : 0;
    return std::min(0.999, (done_.load() + part) / std::max(1, planned_.load()));
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  std::atomic<int> planned_;
  const std::string board_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<int> done_{0};
  std::atomic<int> finished_here_{0};
  std::atomic<double> finished_at_{0};  // seconds from the start to the last sweep finished here
  SweepWatch watch_;
  std::atomic<const BackwardProgress*> pass_{nullptr};
  std::atomic<double> pass_started_{0};
};

}  // namespace

std::vector<StartClass> start_classes(BoardShape shape) {
  const bool odd = shape.squares() % 2 == 1;
  std::map<std::int64_t, StartClass> by_rep;
  for (int r = 0; r < shape.rows; ++r) {
    for (int c = 0; c < shape.cols; ++c) {
      if (odd && (r + c) % 2 == 1) continue;  // the minority colour: no open tour ends there
      const auto orbit = images(shape, r, c);
      auto& cls = by_rep[orbit.front()];
      cls.representative = orbit.front();
      cls.squares.push_back(std::int64_t{r} * shape.cols + c);
    }
  }
  std::vector<StartClass> out;
  for (auto& [rep, cls] : by_rep) out.push_back(std::move(cls));
  return out;
}

Orientation best_orientation_for(BoardShape shape, std::int64_t square) {
  Orientation best{};
  int best_vertex = -1;
  for (const auto& o : sweep_orientations(shape)) {
    const int v = Sweep(shape, o).vertex(square);
    if (best_vertex < 0 || v < best_vertex) {
      best_vertex = v;
      best = o;
    }
  }
  return best;
}

namespace {

// What an all-starts job that stopped still has to expand (the report's classes_left, which
// `estimate` projects from). A pinned tail from pin p expands about what
// the sweep's profile (its generations, measured, then projected) holds from step p on, and
// the prefix between two pins what it holds between them. absorb() alone takes every sweep
// not started to cost a whole one, counting each tail as long as the first: 8x7 (16 tails)
// was projected at 3.6e10 classes for its 4.9e9. The profile is projected from the prefix's
// generations followed by the stopped run's own: a tail stopped a few steps after its pin
// has too short a history of its own to see the growth.
class AllStartsOutlook {
 public:
  // `pins`: the pins' vertices in sweep order.
  AllStartsOutlook(const Sweep& s, std::vector<int> pins)
      : pins_(std::move(pins)), steps_(s.size()), width_(s.width()) {}

  // A stretch of the prefix reached its pin: its generations join the history.
  void prefix_paused(const FrontierResult& r) {
    const int start = r.outlook.next_step - static_cast<int>(r.classes.size());
    if (start != end_) history_.clear();
    history_.insert(history_.end(), r.classes.begin(), r.classes.end());
    end_ = r.outlook.next_step;
  }

  // Classes left when `stopped` (FrontierReport::stopped_outlook) is the prefix on its way to
  // pins[next] (in_tail false) or the tail of pins[next] (in_tail true).
  double classes_left(const SweepOutlook& stopped, std::size_t next, bool in_tail) const {
    SweepOutlook o = stopped;
    const int measured = stopped.next_step - stopped.first_step;
    if (end_ == stopped.first_step && !history_.empty() && measured > 0 &&
        static_cast<std::size_t>(measured) <= stopped.profile.size()) {
      std::vector<std::uint64_t> sizes = history_;
      for (int k = 0; k < measured; ++k)
        sizes.push_back(static_cast<std::uint64_t>(stopped.profile[static_cast<std::size_t>(k)]));
      o = sweep_outlook(sizes, stopped.next_step, steps_, width_, sizes.back());
    }
    // Classes expanded at steps [from, to) by the profile: step k expands the generation
    // after step k - 1; where the profile does not reach, nothing is counted.
    auto expanded = [&](int from, int to) {
      double sum = 0;
      for (int k = std::max(from, o.first_step + 1); k < to; ++k) {
        const auto at = static_cast<std::size_t>(k - 1 - o.first_step);
        if (at < o.profile.size()) sum += o.profile[at];
      }
      return sum;
    };
    // The run's own rest (the step under way is redone whole), the prefix from pins[next] to
    // the last pin, and the tails not started.
    double left = expanded(o.next_step, in_tail ? steps_ : pins_[next]);
    left += expanded(pins_[next], pins_.back());
    for (std::size_t i = in_tail ? next + 1 : next; i < pins_.size(); ++i)
      left += expanded(pins_[i], steps_);
    return left;
  }

 private:
  std::vector<int> pins_;
  int steps_;
  int width_;
  std::vector<std::uint64_t> history_;  // the prefix's generations after steps ... end_ - 1
  int end_ = -1;
};

// Open tours over all starts: one pinned sweep per class of start squares, sharing their
// common beginning. Before its pinned square a pinned sweep follows rules that do not
// depend on the pin (T may take one edge, not two), so a single "prefix" sweep runs those
// rules and, on reaching a class's pin, hands a copy of its classes to a sweep pinned
// there that finishes the count. Each class is pinned at the member the sweep reaches
// last: the prefix is one sweep in all, and what is left after a pin is short.
template <class Sweeper>
bool count_all_starts(BoardShape shape, const std::vector<StartClass>& classes,
                      const FrontierOptions& options, StopControl& stop, FrontierJournal* journal,
                      FrontierReport& report, Sweeper& sweep) {
  const Sweep s(shape);
  struct Pin {
    int vertex;
    const StartClass* cls;
  };
  std::vector<Pin> pins;
  for (const auto& cls : classes) {
    int last = -1;
    for (auto sq : cls.squares) last = std::max(last, s.vertex(sq));
    pins.push_back({last, &cls});
  }
  std::sort(pins.begin(), pins.end(),
            [](const Pin& a, const Pin& b) { return a.vertex < b.vertex; });
  std::vector<int> vertices;
  for (const auto& pin : pins) vertices.push_back(pin.vertex);
  AllStartsOutlook outlook(s, std::move(vertices));
  const int first_fork = report.sweeps;  // sweep index of the first pinned sweep
  const int prefix_index = first_fork + static_cast<int>(pins.size());
  const FrontierTarget prefix_target{false, s.size()};  // pinned past the end: never reached

  std::optional<FrontierState> prefix;
  bool prefix_looked_up = journal == nullptr;  // a saved prefix is read only when needed
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const Pin& pin = pins[i];
    const int index = first_fork + static_cast<int>(i);
    BigCount from;
    std::optional<FrontierState> start;
    // A pinned sweep finished or saved by an earlier run needs no prefix to start from.
    const bool needs_prefix =
        journal == nullptr || (!journal->finished(index) && !journal->has_saved(index));
    if (needs_prefix) {
      if (!prefix_looked_up) {
        prefix = journal->saved(prefix_index);
        prefix_looked_up = true;
      }
      // The prefix up to the pin (from a saved prefix when it has not passed the pin).
      if (prefix && prefix->next_step > pin.vertex) prefix.reset();
      FrontierOptions o = options;
      o.until_step = pin.vertex;
      o.label = "open tours, the part before the pins";
      if (journal != nullptr) {
        o.after_step = [&](const FrontierState& st) { journal->after_step(prefix_index, st); };
      }
      FrontierResult r = run_frontier(s, prefix_target, o, stop, std::move(prefix));
      absorb(report, r, false);
      if (!r.paused) {
        report.classes_left = outlook.classes_left(report.stopped_outlook, i, false);
        return false;
      }
      prefix = std::move(r.paused);
      start = *prefix;  // a copy: classes in memory are copied, spill files shared
      outlook.prefix_paused(r);
    }
    const int r = static_cast<int>(pin.cls->representative / shape.cols);
    const int c = static_cast<int>(pin.cls->representative % shape.cols);
    if (!sweep(s, FrontierTarget{false, pin.vertex},
               "open tours from r,c " + std::to_string(r) + "," + std::to_string(c), from,
               std::move(start))) {
      report.classes_left = outlook.classes_left(report.stopped_outlook, i, true);
      return false;
    }
    for (auto sq : pin.cls->squares) {
      report.tours_by_start[static_cast<std::size_t>(sq)] = from;
      report.tours += from;
    }
  }
  return true;
}

enum class BackwardOutcome { done, stopped, fell_back };

// The grid by one unpinned sweep, its generations kept, and the pass back over them
// (backward_pass.hpp). The sweep gets a quarter of the memory budget and its kept generations
// half (all of them, or each column's first); the pass's tables, and a column's generations
// recomputed, take the rest. When the generations outgrow their half the sweep is abandoned
// at once (its after_step throws), and when the pass would not fit beside them it is not
// started; either way the job takes pinned tails instead, having lost the sweep's work (at
// most what --total-only costs).
BackwardOutcome grid_by_pass(const Sweep& plain, const FrontierOptions& options, StopControl& stop,
                             FrontierReport& report, JobProgress& progress) {
  const FrontierTarget unpinned{false, std::nullopt};
  report.grid_by_backward_pass = true;  // also when it stops: the way it was going
  FrontierOptions o = options;
  o.memory_limit = options.memory_limit / 4;
  o.label = "open tours, every path once, kept for the pass back";
  KeptGenerations kept(options.memory_limit / 2, plain.width());
  o.until_step = 0;
  FrontierResult first = run_frontier(plain, unpinned, o, stop);
  if (!first.paused) {
    absorb(report, first);
    return BackwardOutcome::stopped;
  }
  struct OutOfRoom {
    const char* what;
  };
  const OutOfRoom kept_too_big{
      "the unpinned sweep's generations outgrew half the memory budget, even each column's "
      "first alone"};
  o.until_step = -1;
  o.after_step = [&](const FrontierState& state) {
    if (!kept.keep(state)) throw kept_too_big;
  };
  std::optional<FrontierResult> swept;
  try {
    if (!kept.keep(*first.paused)) throw kept_too_big;
    swept = run_frontier(plain, unpinned, o, stop, std::move(first.paused));
    // Its quarter of the budget was too small (without a spill folder): the tails get it all.
    if (!swept->complete && swept->stop_reason == StopReason::memory) {
      throw OutOfRoom{"the unpinned sweep outgrew its quarter of the memory budget"};
    }
  } catch (const OutOfRoom& e) {
    spdlog::info("{}: the tours from each square come from pinned tails instead", e.what);
    report.grid_by_backward_pass = false;
    return BackwardOutcome::fell_back;
  }
  const FrontierResult& r = *swept;
  absorb(report, r);
  report.peak_bytes = std::max(report.peak_bytes, r.peak_bytes + kept.bytes());
  if (!r.complete) return BackwardOutcome::stopped;
  progress.sweep_done(true);
  ++report.sweeps_finished;
  const std::uint64_t need = kept.bytes() +
                             pass_scratch_bytes(plain, kept, r.peak_classes, r.count) +
                             (kept.columns_only() ? o.memory_limit : 0);
  if (need > options.memory_limit) {
    spdlog::info(
        "the pass back over the unpinned sweep would need {} beside its generations, more than "
        "the memory budget: the tours from each square come from pinned tails instead",
        size_text(need));
    report.grid_by_backward_pass = false;
    return BackwardOutcome::fell_back;
  }
  if (kept.columns_only()) {
    spdlog::info(
        "the unpinned sweep's generations outgrew half the memory budget: each column's first "
        "is kept and the pass back recomputes the others (one more sweep's work)");
  }
  BackwardProgress pass;
  progress.backward_pass(&pass);
  const auto t0 = std::chrono::steady_clock::now();
  FrontierOptions again = o;  // for the columns the pass recomputes
  again.after_step = nullptr;
  BackwardPassResult grid = tours_from_every_square(plain, again, kept, r.count, stop, &pass);
  progress.backward_pass(nullptr);
  report.expanded += grid.expanded;
  report.steps_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++report.sweeps;
  if (grid.tours_by_square.empty()) {
    report.stop_reason = stop.reason();
    report.classes_left = static_cast<double>(pass.classes_total - pass.classes_done);
    return BackwardOutcome::stopped;
  }
  progress.sweep_done(true);
  ++report.sweeps_finished;
  report.tours_by_start = std::move(grid.tours_by_square);
  report.tours = r.count * 2;
  return BackwardOutcome::done;
}

}  // namespace

bool grid_by_backward_pass(const FrontierRequest& request, const FrontierOptions& options,
                           const FrontierJournal* journal) {
  if (request.closed || request.start || request.total_only) return false;
  const bool alone = several_ranks(options.ranks) == nullptr;
  if (request.grid == GridMethod::backward_pass) {
    if (journal != nullptr || !alone) {
      throw UsageError(
          "the backward pass keeps its generations in memory only and runs in one process: "
          "not with a run directory or MPI ranks");
    }
    return true;
  }
  if (request.grid == GridMethod::pinned_tails || journal != nullptr || !alone) return false;
  // The tails cost about one sweep's second half per class of start squares; the pass about
  // three sweeps, but its lookups are random, into tables that grow about twice with each
  // square of width. Measured (results/frontier/backward-pass-2026-11-27.md), the pass wins
  // from about 2^(W-2) classes on: 4x5 (6 classes) 1.5x, 5x6 (9) 1.25x, 6x12 (18) 1.16x; and
  // loses below: 5x7 (6) 0.93x, 6x8 (12) 0.85x, 6x6 (6) 0.68x.
  const int width = Sweep(request.shape).width();
  const auto classes = static_cast<std::int64_t>(start_classes(request.shape).size());
  return classes >= (std::int64_t{1} << std::max(0, width - 2));
}

void validate(const FrontierRequest& request) {
  const Sweep plain(request.shape);  // validates the width
  if (request.start && (*request.start < 0 || *request.start >= request.shape.squares())) {
    throw UsageError("the start square is off the board");
  }
  if (request.total_only && (request.start || request.closed)) {
    throw UsageError("a total-only count is of open tours over all starts");
  }
  if (request.open_sweeps_only && request.closed) {
    throw UsageError("a closed count has no open sweeps to run alone");
  }
  chosen_bit_kernel();  // a bad KNIGHTSTOUR_BIT_KERNEL stops the run here, before any work
}

int planned_sweeps(const FrontierRequest& request, bool backward_pass) {
  if (request.closed) return 1;
  const int closed_sweep = request.open_sweeps_only ? 0 : 1;
  if (request.start || request.total_only) return closed_sweep + 1;
  if (backward_pass) return closed_sweep + 2;
  return closed_sweep + static_cast<int>(start_classes(request.shape).size());
}

FrontierReport count_by_frontier(const FrontierRequest& request, const FrontierOptions& options,
                                 StopControl& stop, FrontierJournal* journal) {
  validate(request);
  if (request.open_sweeps_only && journal != nullptr) {
    throw std::logic_error("open_sweeps_only runs without a journal");
  }
  const BoardShape shape = request.shape;
  const Sweep plain(shape);
  const std::int64_t squares = shape.squares();
  FrontierReport report;
  report.width = plain.width();
  const bool backward = grid_by_backward_pass(request, options, journal);
  report.sweeps_planned = planned_sweeps(request, backward);
  const auto started = std::chrono::steady_clock::now();
  const std::string board = std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
  JobProgress progress(report.sweeps_planned, board);
  FrontierOptions watched = options;
  watched.watch = &progress.watch();
  IdleChunks idle;  // the sweeps run one after another and reuse each other's scratch
  if (watched.idle_chunks == nullptr) watched.idle_chunks = &idle;

  // Runs one sweep; false when it stopped (the report then says why).
  auto sweep = [&](const Sweep& s, const FrontierTarget& target, const std::string& what,
                   BigCount& out, std::optional<FrontierState> start = std::nullopt) {
    const int index = report.sweeps;
    if (journal != nullptr) {
      if (auto done = journal->finished(index)) {
        progress.sweep_done(false);
        ++report.sweeps;
        ++report.sweeps_resumed;
        ++report.sweeps_finished;
        out = *done;
        return true;
      }
    }
    FrontierOptions o = watched;
    o.label = what;
    if (journal != nullptr) {
      if (auto saved = journal->saved(index)) {
        start = std::move(saved);
        ++report.sweeps_resumed;
      }
      o.after_step = [&](const FrontierState& state) { journal->after_step(index, state); };
    }
    if (start) {
      // A copy from the shared prefix: its memory counts against what this sweep may use.
      const std::uint64_t held = memory_bytes_of(start->classes);
      o.memory_limit -= std::min(o.memory_limit, held);
    }
    const FrontierResult r = run_frontier(s, target, o, stop, std::move(start));
    absorb(report, r);
    if (r.complete) {
      progress.sweep_done(true);
      ++report.sweeps_finished;
      out = r.count;
      if (journal != nullptr) journal->finish(index, r.count);
    }
    return r.complete;
  };

  std::vector<StartClass> classes;
  if (!request.closed && !request.start && !request.total_only) classes = start_classes(shape);
  ProgressMonitor monitor(
      options.progress_seconds, [&] { return progress.status(); },
      [&] { return progress.fraction(); });

  bool ok = request.open_sweeps_only || sweep(plain, {true, {}}, "closed cycles", report.cycles);
  const BigCount closed_per_start = report.cycles * 2;
  if (ok && request.closed) {
    report.closed_tours =
        request.start ? closed_per_start : closed_per_start * static_cast<std::uint64_t>(squares);
    report.tours = report.closed_tours;
    if (!request.start) {
      report.tours_by_start.assign(static_cast<std::size_t>(squares), closed_per_start);
      report.closed_by_start = report.tours_by_start;
    }
  } else if (ok && request.start) {
    const Sweep s(shape, best_orientation_for(shape, *request.start));
    ok = sweep(s, {false, s.vertex(*request.start)}, "open tours from the start", report.tours);
    report.closed_tours = closed_per_start;
  } else if (ok && request.total_only) {
    BigCount paths;
    ok = sweep(plain, {false, std::nullopt}, "open tours, every path once", paths);
    report.tours = paths * 2;
    report.closed_tours = closed_per_start * static_cast<std::uint64_t>(squares);
  } else if (ok) {
    report.tours_by_start.assign(static_cast<std::size_t>(squares), BigCount{});
    report.closed_by_start.assign(static_cast<std::size_t>(squares), closed_per_start);
    BackwardOutcome outcome = BackwardOutcome::fell_back;
    if (backward) outcome = grid_by_pass(plain, watched, stop, report, progress);
    if (outcome == BackwardOutcome::fell_back) {
      // The closed sweep, an unpinned sweep that finished before the pass was given up, and
      // the tails.
      report.sweeps_planned =
          report.sweeps + planned_sweeps(request) - (request.open_sweeps_only ? 0 : 1);
      progress.replan(report.sweeps_planned);
      ok = count_all_starts(shape, classes, watched, stop, journal, report, sweep);
    } else {
      ok = outcome == BackwardOutcome::done;
    }
    report.closed_tours = closed_per_start * static_cast<std::uint64_t>(squares);
  }
  if (ok && squares == 1 && !request.closed) {
    // One square is an open tour by itself; the DP counts paths by their edges, and it has none.
    report.tours = BigCount(1);
    if (!request.start && !request.total_only) report.tours_by_start = {BigCount(1)};
  }
  report.complete = ok;
  if (!ok) {
    report.tours = report.closed_tours = report.cycles = BigCount{};
    report.tours_by_start.clear();
    report.closed_by_start.clear();
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace knightstour
