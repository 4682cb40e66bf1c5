// The grid of open tours by the backward pass (backward_pass.hpp): against the enumerator on
// every board up to 36 squares, against pinned tails on long boards with wide counts, with
// and without the mirror fold; and how the job chooses it, falls back from it and refuses it.
#include "frontier/grid/backward_pass.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "frontier/grid/grid_by_pass.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

std::string name(BoardShape s) { return std::to_string(s.rows) + "x" + std::to_string(s.cols); }

FrontierReport grid(BoardShape shape, GridMethod method, FrontierOptions options = {}) {
  StopControl stop({});
  options.threads = 2;
  FrontierRequest request{shape, false, {}};
  request.grid = method;
  FrontierReport r = count_by_frontier(request, options, stop);
  EXPECT_TRUE(r.complete);
  return r;
}

TEST(BackwardPass, AgreesWithTheEnumeratorOnEveryBoardUpTo36Squares) {
  for (int rows = 1; rows <= 36; ++rows) {
    for (int cols = 1; rows * cols <= 36; ++cols) {
      const BoardShape shape{rows, cols};
      SCOPED_TRACE(name(shape));
      const RunReport dfs = test::count(test::make_all_starts_job(name(shape)));
      const FrontierReport f = grid(shape, GridMethod::backward_pass);
      EXPECT_TRUE(f.grid_by_backward_pass);
      EXPECT_EQ(f.tours, BigCount(dfs.tours));
      ASSERT_EQ(f.tours_by_start.size(), dfs.tours_by_start.size());
      for (std::size_t sq = 0; sq < dfs.tours_by_start.size(); ++sq)
        EXPECT_EQ(f.tours_by_start[sq], BigCount(dfs.tours_by_start[sq])) << "square " << sq;
      EXPECT_EQ(f.closed_tours, BigCount(dfs.closed));
    }
  }
}

// The kernel the plan chose reaches the sweep and the pass back (FrontierOptions::kernel):
// each packs keys its own way, and both give the same grid (checked against the enumerator
// above with the kernel this CPU chooses).
TEST(BackwardPass, BothBitKernelsGiveTheSameGrid) {
  if (!cpu_has_bmi2()) GTEST_SKIP() << "this CPU has no BMI2";
  for (const BoardShape shape : {BoardShape{5, 6}, BoardShape{4, 9}}) {
    SCOPED_TRACE(name(shape));
    FrontierOptions portable, bmi2;
    portable.kernel = BitKernel::portable;
    bmi2.kernel = BitKernel::bmi2;
    const FrontierReport a = grid(shape, GridMethod::backward_pass, portable);
    const FrontierReport b = grid(shape, GridMethod::backward_pass, bmi2);
    EXPECT_TRUE(a.grid_by_backward_pass && b.grid_by_backward_pass);
    EXPECT_NE(a.tours, BigCount{});
    EXPECT_EQ(a.tours, b.tours);
    EXPECT_EQ(a.tours_by_start, b.tours_by_start);
    EXPECT_EQ(a.closed_tours, b.closed_tours);
  }
}

// Past the enumerator: the two ways of counting the grid against each other, on boards whose
// counts take 64 to 512 bits, both orientations, with the mirror fold on and off.
TEST(BackwardPass, AgreesWithPinnedTailsOnLongBoards) {
  const BoardShape boards[] = {{3, 40}, {40, 3}, {4, 24}, {5, 11}, {2, 60}, {3, 170}};
  for (const BoardShape shape : boards) {
    SCOPED_TRACE(name(shape));
    const FrontierReport tails = grid(shape, GridMethod::pinned_tails);
    const FrontierReport pass = grid(shape, GridMethod::backward_pass);
    EXPECT_FALSE(tails.grid_by_backward_pass);
    EXPECT_TRUE(pass.grid_by_backward_pass);
    EXPECT_EQ(pass.tours_by_start, tails.tours_by_start);
    EXPECT_EQ(pass.tours, tails.tours);
    EXPECT_EQ(pass.sweeps, 3);
    if (shape.rows * shape.cols <= 60) {
      FrontierOptions unfolded;
      unfolded.fold_mirror = false;
      EXPECT_EQ(grid(shape, GridMethod::backward_pass, unfolded).tours_by_start,
                tails.tours_by_start);
    }
  }
  // The longest of them needs counts past 256 bits.
  EXPECT_GT(grid({3, 170}, GridMethod::backward_pass).limbs, 4);
}

// A journal that keeps nothing: enough to say a job has one.
class NoJournal : public FrontierJournal {
 public:
  std::optional<BigCount> finished(int) override { return std::nullopt; }
  void finish(int, const BigCount&) override {}
  bool saved(int, FrontierState&) override { return false; }
  bool has_saved(int) override { return false; }
  void after_step(int, const FrontierState&) override {}
  std::optional<int> keep(int, const FrontierState&) override { return std::nullopt; }
  void drop(int) override {}
};

// Automatic: the pass on boards with many classes of start squares for their width, the tails
// on the others and whenever a journal keeps the job.
TEST(BackwardPass, TheJobChoosesItWhereItPays) {
  FrontierOptions options;
  EXPECT_TRUE(chooses_backward_pass({{3, 20}, false, {}}, options, nullptr));
  EXPECT_TRUE(chooses_backward_pass({{5, 10}, false, {}}, options, nullptr));
  EXPECT_TRUE(chooses_backward_pass({{6, 7}, false, {}}, options, nullptr));   // 12 classes
  EXPECT_FALSE(chooses_backward_pass({{6, 6}, false, {}}, options, nullptr));  // 6 classes
  EXPECT_FALSE(chooses_backward_pass({{7, 7}, false, {}}, options, nullptr));
  EXPECT_FALSE(chooses_backward_pass({{8, 8}, false, {}}, options, nullptr));
  FrontierRequest tails{{3, 20}, false, {}};
  tails.grid = GridMethod::pinned_tails;
  EXPECT_FALSE(chooses_backward_pass(tails, options, nullptr));
  FrontierRequest total{{3, 20}, false, {}};
  total.total_only = true;
  EXPECT_FALSE(chooses_backward_pass(total, options, nullptr));
  EXPECT_FALSE(chooses_backward_pass({{3, 20}, true, {}}, options, nullptr));
  EXPECT_FALSE(chooses_backward_pass({{3, 20}, false, 0}, options, nullptr));
  // A journal (a run directory) resumes pinned tails; the pass keeps nothing on disk.
  NoJournal journal;
  EXPECT_FALSE(chooses_backward_pass({{3, 20}, false, {}}, options, &journal));
  FrontierRequest pass{{3, 20}, false, {}};
  pass.grid = GridMethod::backward_pass;
  EXPECT_THROW(chooses_backward_pass(pass, options, &journal), UsageError);
}

// Under a budget too small for every generation, the pass keeps each column's first and
// recomputes the others: the same grid, counts past 256 bits (3x170), at more classes.
TEST(BackwardPass, RecomputesColumnsUnderASmallBudget) {
  const BoardShape shape{3, 170};
  const FrontierReport whole = grid(shape, GridMethod::backward_pass);
  FrontierOptions small;
  small.memory_budget = std::uint64_t{4} << 20;
  const FrontierReport columns = grid(shape, GridMethod::backward_pass, small);
  EXPECT_TRUE(columns.grid_by_backward_pass);
  EXPECT_EQ(columns.tours_by_start, whole.tours_by_start);
  EXPECT_GT(columns.expanded, whole.expanded);
  EXPECT_GT(columns.limbs, 4);
}

// The pass keeps its generations in memory: where they do not fit, the job counts the grid by
// pinned tails instead, with the same result.
TEST(BackwardPass, FallsBackToPinnedTailsWhenTheGenerationsDoNotFit) {
  const FrontierReport whole = grid({5, 8}, GridMethod::backward_pass);
  ASSERT_TRUE(whole.grid_by_backward_pass);
  FrontierOptions small;
  small.memory_budget = std::uint64_t{8} << 20;  // the sweep gets 2 MiB: 5x8 needs more
  // Steps built at once, so that the unpinned sweep outgrows its 2 MiB (in slices it can
  // complete, and the pass back is then refused beside its generations: one sweep more).
  small.slices = 1;
  const FrontierReport fell_back = grid({5, 8}, GridMethod::backward_pass, small);
  EXPECT_FALSE(fell_back.grid_by_backward_pass);
  EXPECT_EQ(fell_back.tours_by_start, whole.tours_by_start);
  EXPECT_EQ(fell_back.sweeps, 1 + 12);  // the closed sweep and 12 tails
  // Generations too big even by columns: the sweep is abandoned from its after_step hook.
  const FrontierReport long_board = grid({3, 120}, GridMethod::backward_pass);
  FrontierOptions tiny;
  tiny.memory_budget = std::uint64_t{1} << 20;
  const FrontierReport abandoned = grid({3, 120}, GridMethod::backward_pass, tiny);
  EXPECT_FALSE(abandoned.grid_by_backward_pass);
  EXPECT_EQ(abandoned.tours_by_start, long_board.tours_by_start);
  EXPECT_EQ(abandoned.sweeps, abandoned.sweeps_planned);
}

// The generations of the unpinned sweep of `shape`, and its count of paths.
KeptGenerations kept_generations(const Sweep& sweep, BigCount& paths) {
  KeptGenerations kept(~std::uint64_t{0}, sweep.width());
  StopControl stop({});
  FrontierOptions o;
  o.until_step = 0;
  const FrontierTarget unpinned{false, std::nullopt};
  FrontierResult first = run_frontier(sweep, unpinned, o, stop);
  EXPECT_TRUE(kept.keep(*first.paused));
  o.until_step = -1;
  o.after_step = [&](const FrontierState& s) { EXPECT_TRUE(kept.keep(s)); };
  const FrontierResult r = run_frontier(sweep, unpinned, o, stop, std::move(first.paused));
  EXPECT_TRUE(r.complete);
  paths = r.count;
  return kept;
}

// Sum of n(X) c(X) over the first generation must be the sweep's count: a pass given another
// count stops with an error instead of printing a grid.
TEST(BackwardPass, ChecksItsPathsAgainstTheSweep) {
  const Sweep sweep({5, 6});
  BigCount paths;
  const KeptGenerations kept = kept_generations(sweep, paths);
  ASSERT_TRUE(kept.whole(sweep.size()));
  StopControl stop({});
  const BackwardPassResult ok = tours_from_every_square(sweep, {}, kept, paths, stop);
  ASSERT_EQ(ok.tours_by_square.size(), 30u);
  BigCount ends;
  for (const BigCount& t : ok.tours_by_square) ends += t;
  EXPECT_EQ(ends, paths * 2);
  BigCount wrong = paths;
  wrong += BigCount(1);
  EXPECT_THROW(tours_from_every_square(sweep, {}, kept, wrong, stop), std::logic_error);
}

// The pass runs on the threads the sweep was given: outside the sweep's task arena it once
// took every core whatever --threads said.
TEST(BackwardPass, RunsOnTheThreadsItIsGiven) {
  const Sweep sweep({5, 20});
  BigCount paths;
  const KeptGenerations kept = kept_generations(sweep, paths);
  StopControl stop({});
  FrontierOptions one;
  one.threads = 1;
  EXPECT_EQ(tours_from_every_square(sweep, one, kept, paths, stop).threads, 1);
  FrontierOptions two;
  two.threads = 2;
  const BackwardPassResult r = tours_from_every_square(sweep, two, kept, paths, stop);
  EXPECT_GE(r.threads, 1);
  EXPECT_LE(r.threads, 2);
}

TEST(BackwardPass, StopsWhenAskedWithoutAGrid) {
  const Sweep sweep({5, 6});
  BigCount paths;
  const KeptGenerations kept = kept_generations(sweep, paths);
  StopControl stop({});
  stop.request(StopReason::signal);
  BackwardProgress progress;
  const BackwardPassResult r = tours_from_every_square(sweep, {}, kept, paths, stop, &progress);
  EXPECT_TRUE(r.tours_by_square.empty());
  EXPECT_LT(progress.steps_done.load(), 30);
}

// The pass ends at the first generation of the column holding the middle square: the
// squares before it get the counts of their images under the half turn, so the generations
// before it need not be kept. The counts the half turn gives are checked against the
// enumerator above (every board up to 36 squares) and against the tails; here, where it
// stops, and that a keeper told so holds nothing before it and still gives the whole grid.
TEST(BackwardPass, EndsAtTheMiddleColumnAndKeepsNothingBefore) {
  EXPECT_EQ(pass_last_step(Sweep({5, 7})), 15);   // 35 squares, 5 a column: column 3 of 7
  EXPECT_EQ(pass_last_step(Sweep({6, 8})), 24);   // column 4 of 8
  EXPECT_EQ(pass_last_step(Sweep({3, 40})), 60);  // column 20 of 40
  EXPECT_EQ(pass_last_step(Sweep({1, 5})), 2);    // five columns of one square: the middle
  EXPECT_EQ(pass_last_step(Sweep({1, 1})), 0);    // one square
  EXPECT_EQ(pass_last_step(Sweep({4, 4})), 8);    // column 2 of 4

  const Sweep sweep({5, 7});
  BigCount paths;
  const KeptGenerations all = kept_generations(sweep, paths);
  const int from = pass_last_step(sweep);
  KeptGenerations half(~std::uint64_t{0}, sweep.width(), from);
  for (int k = 0; k < sweep.size(); ++k) EXPECT_TRUE(half.keep({k, all.at(k)}));
  ASSERT_TRUE(half.whole(sweep.size()));
  for (int k = 0; k < sweep.size(); ++k) EXPECT_EQ(half.has(k), k >= from) << k;
  EXPECT_LT(half.bytes(), all.bytes());
  StopControl stop({});
  BackwardProgress progress;
  const BackwardPassResult r = tours_from_every_square(sweep, {}, half, paths, stop, &progress);
  EXPECT_EQ(r.tours_by_square,
            tours_from_every_square(sweep, {}, all, paths, stop).tours_by_square);
  EXPECT_EQ(progress.steps_total.load(), sweep.size() - from);
  EXPECT_EQ(progress.steps_done.load(), sweep.size() - from);
  // One generation short of where the pass ends is refused, not counted wrong.
  KeptGenerations late(~std::uint64_t{0}, sweep.width(), from + 1);
  for (int k = 0; k < sweep.size(); ++k) EXPECT_TRUE(late.keep({k, all.at(k)}));
  EXPECT_THROW(tours_from_every_square(sweep, {}, late, paths, stop), std::logic_error);
}

// Under a limit below all the generations the pass keeps each column's first only and
// recomputes the rest of a column when it gets there: the same grid. Below even those it
// keeps nothing, and says so.
TEST(BackwardPass, KeepsColumnsOnlyOrNothingPastItsLimit) {
  const Sweep sweep({5, 7});
  const int w = sweep.width();
  BigCount paths;
  const KeptGenerations all = kept_generations(sweep, paths);
  ASSERT_FALSE(all.columns_only());
  StopControl stop({});
  const BackwardPassResult whole = tours_from_every_square(sweep, {}, all, paths, stop);

  KeptGenerations columns(all.bytes() / 2, w);
  for (int k = 0; k < sweep.size(); ++k) EXPECT_TRUE(columns.keep({k, all.at(k)}));
  ASSERT_TRUE(columns.whole(sweep.size()));
  EXPECT_TRUE(columns.columns_only());
  for (int k = 0; k < sweep.size(); ++k) EXPECT_EQ(columns.has(k), k % w == 0) << k;
  EXPECT_LE(columns.bytes(), all.bytes() / 2);
  const BackwardPassResult recomputed = tours_from_every_square(sweep, {}, columns, paths, stop);
  EXPECT_EQ(recomputed.tours_by_square, whole.tours_by_square);
  EXPECT_GT(recomputed.expanded, whole.expanded);  // the columns' rest, expanded again

  KeptGenerations none(columns.bytes() / 2, w);
  bool refused = false;
  for (int k = 0; k < sweep.size() && !refused; ++k) refused = !none.keep({k, all.at(k)});
  EXPECT_TRUE(refused);
  EXPECT_TRUE(none.gave_up());
  EXPECT_FALSE(none.whole(sweep.size()));
  EXPECT_EQ(none.bytes(), 0u);
  // Out of order (a generation missing) is refused too.
  KeptGenerations gap(~std::uint64_t{0}, w);
  EXPECT_TRUE(gap.keep({0, all.at(0)}));
  EXPECT_FALSE(gap.keep({2, all.at(2)}));
}

}  // namespace
}  // namespace knightstour
