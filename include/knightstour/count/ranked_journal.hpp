#pragma once

#include <cstdint>
#include <optional>

#include "knightstour/count/frontier_run_dir.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour {

// The journal of a frontier count over several MPI ranks: each rank keeps its own run
// directory (its share of every checkpoint, and the counts of the finished sweeps), and
// every answer this journal gives is one the ranks agreed on, so that they all take the same
// path through the job (count_by_frontier asks the same questions in the same order on every
// rank). A sweep is finished when every rank recorded it; a checkpoint is taken up when every
// rank has one of that sweep at the same step (a rank killed while the ranks were saving can
// leave some at the new step and some at the old: that sweep then starts again); a save is
// due when it is due on any rank, and then every rank saves at the same step boundary.
class RankedJournal final : public FrontierJournal {
 public:
  RankedJournal(FrontierRunDir& mine, Ranks& ranks) : mine_(mine), ranks_(ranks) {}

  std::optional<BigCount> finished(int sweep) override;
  void finish(int sweep, const BigCount& count) override { mine_.finish(sweep, count); }
  std::optional<FrontierState> saved(int sweep) override;
  bool has_saved(int sweep) override;
  void after_step(int sweep, const FrontierState& state) override;

 private:
  FrontierRunDir& mine_;
  Ranks& ranks_;
};

}  // namespace knightstour
