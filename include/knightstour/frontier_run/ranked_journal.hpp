#pragma once

#include <cstdint>
#include <optional>

#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"

namespace knightstour {

// The journal of a frontier count over several MPI ranks: each rank keeps its own run
// directory (its share of every checkpoint, and the counts of the finished sweeps), and
// every answer this journal gives is one the ranks agreed on, so that they all take the same
// path through the job (count_by_frontier asks the same questions in the same order on every
// rank). A sweep is finished when every rank recorded it. A save is due when it is due on any
// rank, and then every rank saves at the same step boundary in two phases: each stages its
// share beside its checkpoint, and only when all have staged does any commit (replace its
// checkpoint with the staged one). So a rank killed while they save leaves either every rank
// holding the old step (some also a part of the new) or every rank holding the new (staged or
// committed); a resume takes the newest step every rank holds and commits it everywhere.
class RankedJournal final : public FrontierJournal {
 public:
  RankedJournal(FrontierRunDir& mine, Ranks& ranks) : mine_(mine), ranks_(ranks) {}

  std::optional<BigCount> finished(int sweep) override;
  void finish(int sweep, const BigCount& count) override { mine_.finish(sweep, count); }
  bool saved(int sweep, FrontierState& into) override;
  bool has_saved(int sweep) override;
  void after_step(int sweep, const FrontierState& state) override;
  // Every rank stopped at the same step (they stop together): all save it, in two phases.
  std::optional<int> keep(int sweep, const FrontierState& state) override;
  void drop(int sweep) override { mine_.drop(sweep); }

 private:
  void save_together(int sweep, const FrontierState& state);
  // The latest step every rank holds a checkpoint of `sweep` at, committed or staged
  // (nothing when there is none); each rank then keeps that one only.
  std::optional<int> agreed_step(int sweep);

  FrontierRunDir& mine_;
  Ranks& ranks_;
};

}  // namespace knightstour
