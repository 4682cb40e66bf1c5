#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "frontier/progress/job_progress.hpp"
#include "frontier/sweep/budget_shares.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "frontier/sweep/job_report.hpp"
#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/frontier/frontier_options.hpp"
#include "knightstour/frontier/frontier_report.hpp"

namespace knightstour::frontier_detail {

// The state the journal saved of sweep `index`, if it saved one.
inline std::optional<FrontierState> saved_state(FrontierJournal& journal, int index) {
  FrontierState state;
  if (!journal.saved(index, state)) return std::nullopt;
  return state;
}

// A sweep numbered `index` that stopped keeps its last whole step in the journal, and the
// report says what was kept.
inline void keep_if_stopped(FrontierJournal* journal, int index, FrontierResult& r,
                            FrontierReport& report) {
  if (journal == nullptr || !r.stopped_at) return;
  report.stopped_sweep = index;
  report.stopped_sweep_steps = r.steps;
  report.kept_step =
      r.stopped_at->next_step > 0 ? journal->keep(index, *r.stopped_at) : std::nullopt;
}

// A job's sweeps, run one after another by number: a sweep the journal has finished is taken
// from it, one it saved resumes there; each is watched by the job's progress line, and its
// figures go into the job's report.
class JobSweeps {
 public:
  JobSweeps(const FrontierOptions& watched, StopControl& stop, FrontierJournal* journal,
            FrontierReport& report, JobProgress& progress)
      : watched_(watched), stop_(stop), journal_(journal), report_(report), progress_(progress) {}

  // Runs sweep number `index` into `out`; false when it stopped (the report then says why).
  // `start`: the state it starts from (a copy of a shared prefix), if not from nothing.
  // `shorter`: boards it counts on its way, into `shorter_out` (empty for those a resumed
  // sweep had passed: shorter->counted journals each as it is counted). Such a sweep's own
  // count is not taken, so the journal never finishes it: its checkpoint goes when it ends.
  bool run(int index, const Sweep& s, const FrontierTarget& target, const std::string& what,
           BigCount& out, std::optional<FrontierState> start = std::nullopt,
           const ShorterBoards* shorter = nullptr, ShorterCounts* shorter_out = nullptr) {
    if (journal_ != nullptr && shorter == nullptr) {
      if (auto done = journal_->finished(index)) {
        progress_.sweep_done(false);
        ++report_.sweeps;
        ++report_.sweeps_resumed;
        ++report_.sweeps_finished;
        out = *done;
        return true;
      }
    }
    FrontierOptions o = watched_;
    o.label = what;
    o.shorter = shorter;
    if (journal_ != nullptr) {
      if (auto saved = saved_state(*journal_, index)) {
        start = std::move(saved);
        ++report_.sweeps_resumed;
      }
      o.after_step = [this, index](const FrontierState& state) {
        journal_->after_step(index, state);
      };
    }
    if (start) {
      o.memory_budget = beside_held(o.memory_budget, memory_bytes_of(start->classes));
    }
    FrontierResult r = run_frontier(s, target, o, stop_, std::move(start));
    add_to_report(report_, r);
    keep_if_stopped(journal_, index, r, report_);
    if (r.complete) {
      progress_.sweep_done(true);
      ++report_.sweeps_finished;
      out = r.count;
      if (shorter_out != nullptr) *shorter_out = std::move(r.shorter);
      if (journal_ != nullptr) {
        if (shorter == nullptr) {
          journal_->finish(index, r.count);
        } else {
          journal_->drop(index);
        }
      }
    }
    return r.complete;
  }

  // The count of unit `index` when the journal holds it (nothing without a journal).
  std::optional<BigCount> finished(int index) {
    return journal_ != nullptr ? journal_->finished(index) : std::nullopt;
  }
  // Unit `index` counted `count` (by a sweep of another number, or with no sweep at all).
  void record(int index, const BigCount& count) {
    if (journal_ != nullptr) journal_->finish(index, count);
  }
  // A sweep the job skips: every count it would give is in the journal.
  void skip_finished() {
    progress_.sweep_done(false);
    ++report_.sweeps;
    ++report_.sweeps_resumed;
    ++report_.sweeps_finished;
  }

  // What the job's sweeps share, for a method that runs its own (the pass back).
  const FrontierOptions& options() const { return watched_; }
  StopControl& stop() const { return stop_; }
  FrontierJournal* journal() const { return journal_; }
  FrontierReport& report() const { return report_; }
  JobProgress& progress() const { return progress_; }

  // Runs the next sweep (numbered by the sweeps run so far).
  bool next(const Sweep& s, const FrontierTarget& target, const std::string& what, BigCount& out,
            std::optional<FrontierState> start = std::nullopt,
            const ShorterBoards* shorter = nullptr, ShorterCounts* shorter_out = nullptr) {
    return run(report_.sweeps, s, target, what, out, std::move(start), shorter, shorter_out);
  }

 private:
  const FrontierOptions& watched_;
  StopControl& stop_;
  FrontierJournal* journal_;
  FrontierReport& report_;
  JobProgress& progress_;
};

}  // namespace knightstour::frontier_detail
