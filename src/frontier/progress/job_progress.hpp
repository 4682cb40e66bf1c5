#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "frontier/progress/pass_progress.hpp"
#include "frontier/progress/sweep_watch.hpp"

namespace knightstour::frontier_detail {

// The whole job's progress, one line however many sweeps it takes. The time left is the
// running sweep's projection plus, for the sweeps not started, the mean time of the sweeps
// this session finished; before one has finished that mean is unknown, and so is the ETA
// (the sweeps of one job differ too much to guess from the first one's start). A backward
// pass still to come is taken to last as long as the sweep before it (pass_follows).
class JobProgress {
 public:
  JobProgress(int planned, const std::string& board) : planned_(planned), board_(board) {}

  // A job whose plan changed (a backward pass that fell back to pinned tails).
  void replan(int planned) { planned_ = planned; }
  // The sweep that starts now is the unpinned one a backward pass follows (false: the pass
  // was given up for pinned tails). Its ETA counts the pass as taking as long as the sweep:
  // the pass expands the sweep's generations from the middle column on, each class costing it
  // 1.1 to 1.3 times what it cost the sweep (measured on 5xN boards:
  // `git show 7a5387f:results/frontier/grid-target-2026-11-27.md`).
  void pass_follows(bool follows) {
    sweep_started_.store(elapsed());
    pass_follows_ = follows;
  }
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

  std::string status() const;
  // Sweeps done and the running one's steps: the bar.
  double fraction() const;

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
  std::atomic<bool> pass_follows_{false};
  std::atomic<double> sweep_started_{0};  // of the sweep the pass follows
};

}  // namespace knightstour::frontier_detail
