#pragma once

#include <map>
#include <optional>

#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/frontier_job.hpp"

namespace knightstour::test {

// A journal in memory that saves every step, and stops the job after `stop_after` saves:
// a process killed right after that checkpoint.
class CrashingJournal : public FrontierJournal {
 public:
  std::optional<BigCount> finished(int sweep) override {
    const auto it = finished_.find(sweep);
    return it == finished_.end() ? std::nullopt : std::optional<BigCount>(it->second);
  }
  void finish(int sweep, const BigCount& count) override {
    finished_[sweep] = count;
    if (saved_sweep_ == sweep) saved_.reset();
  }
  bool saved(int sweep, FrontierState& into) override {
    if (!has_saved(sweep)) return false;
    into = *saved_;
    return true;
  }
  bool has_saved(int sweep) override { return saved_ && saved_sweep_ == sweep; }
  void after_step(int sweep, const FrontierState& state) override {
    if (saves_steps) {
      saved_ = state;
      saved_sweep_ = sweep;
    }
    if (++saves_ == stop_after && stop != nullptr) stop->request(StopReason::signal);
  }
  std::optional<int> keep(int sweep, const FrontierState& state) override {
    ++keeps_;
    if (!has_saved(sweep) || saved_->next_step != state.next_step) {
      saved_ = state;
      saved_sweep_ = sweep;
    }
    return saved_->next_step;
  }
  void drop(int sweep) override {
    ++drops;
    if (saved_sweep_ == sweep) saved_.reset();
  }

  StopControl* stop = nullptr;
  int drops = 0;
  int stop_after = -1;
  bool saves_steps = true;  // else no checkpoint is ever due: only a stop keeps a state
  int saves_ = 0;           // steps after which a save was due (or would have been)
  int keeps_ = 0;

 private:
  std::map<int, BigCount> finished_;
  std::optional<FrontierState> saved_;
  int saved_sweep_ = -1;
};

// `request` run until complete, each run stopped `every` checkpoints after the last one and
// resumed from it (at most 1000 runs); `runs` says how many it took.
inline FrontierReport resumed_until_complete(const FrontierRequest& request, int every, int& runs,
                                             bool saves_steps = true, int* keeps = nullptr) {
  CrashingJournal journal;
  journal.saves_steps = saves_steps;
  FrontierReport r;
  runs = 0;
  while (!r.complete && runs < 1000) {
    StopControl stop({});
    journal.stop = &stop;
    journal.stop_after = journal.saves_ + every;
    FrontierOptions options;
    options.threads = 2;
    r = count_by_frontier(request, options, stop, &journal);
    ++runs;
  }
  if (keeps != nullptr) *keeps = journal.keeps_;
  return r;
}

}  // namespace knightstour::test
