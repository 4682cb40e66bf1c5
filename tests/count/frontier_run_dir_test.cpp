#include "knightstour/count/frontier_run_dir.hpp"

#include <gtest/gtest.h>

#include "knightstour/run/run_layout.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

namespace fs = std::filesystem;

FrontierRequest closed_6x7() {
  FrontierRequest r;
  r.shape = {6, 7};
  r.closed = true;
  r.start = 0;
  return r;
}

FrontierState state_at(int step) {
  Generation<1> g;
  g.parts.resize(1);
  g.parts[0].keys = {1, 5, 9};
  g.parts[0].counts = {WideCount<1>{{1}}, WideCount<1>{{2}}, WideCount<1>{{3}}};
  FrontierState state;
  state.next_step = step;
  state.classes = std::move(g);
  return state;
}

TEST(RunLayout, StagedCheckpointNamesAreNotCheckpointNames) {
  EXPECT_EQ(run_layout::checkpoint_name(3), "checkpoint-3.bin");
  EXPECT_EQ(run_layout::staged_checkpoint_name(3), "checkpoint-3.staged.bin");
  EXPECT_EQ(run_layout::parse_checkpoint_name("checkpoint-3.bin"), 3);
  EXPECT_EQ(run_layout::parse_staged_checkpoint_name("checkpoint-3.staged.bin"), 3);
  EXPECT_FALSE(run_layout::parse_checkpoint_name("checkpoint-3.staged.bin"));
  EXPECT_FALSE(run_layout::parse_staged_checkpoint_name("checkpoint-3.bin"));
  EXPECT_FALSE(run_layout::parse_staged_checkpoint_name("checkpoint-.staged.bin"));
  EXPECT_FALSE(run_layout::parse_staged_checkpoint_name("checkpoint-3.staged.bin.tmp"));
  EXPECT_EQ(run_layout::parse_any_checkpoint_name("checkpoint-3.bin"), 3);
  EXPECT_EQ(run_layout::parse_any_checkpoint_name("checkpoint-4.staged.bin"), 4);
  EXPECT_FALSE(run_layout::parse_any_checkpoint_name("manifest.json"));
}

// The two phases of a save over ranks: staging keeps the checkpoint, committing replaces it.
TEST(FrontierRunDir, StagedCheckpointReplacesTheOldOnlyWhenCommitted) {
  test::TempDir tmp;
  auto run = FrontierRunDir::create(tmp / "run", closed_6x7(), RunManifest{}, 0);
  run.save(0, state_at(10));
  run.stage(0, state_at(12));
  EXPECT_EQ(run.saved_step(0), 10);
  EXPECT_EQ(run.staged_step(0), 12);
  run.commit_staged(0);
  EXPECT_EQ(run.saved_step(0), 12);
  EXPECT_FALSE(run.staged_step(0));
  EXPECT_EQ(run.saved(0)->next_step, 12);
}

// What a resume over ranks keeps: the step they agreed on, from whichever file holds it.
TEST(FrontierRunDir, KeepStepTakesTheStagedCheckpointWhenItHoldsTheStep) {
  test::TempDir tmp;
  auto run = FrontierRunDir::create(tmp / "run", closed_6x7(), RunManifest{}, 0);
  run.save(0, state_at(10));
  run.stage(0, state_at(12));
  run.keep_step(0, 12);
  EXPECT_EQ(run.saved_step(0), 12);
  EXPECT_FALSE(run.staged_step(0));

  run.stage(0, state_at(14));  // a save the other ranks did not finish: back to 12
  run.keep_step(0, 12);
  EXPECT_EQ(run.saved_step(0), 12);
  EXPECT_FALSE(fs::exists(tmp / "run" / run_layout::staged_checkpoint_name(0)));

  run.stage(0, state_at(16));
  run.keep_step(0, std::nullopt);  // no step every rank holds: the sweep starts again
  EXPECT_FALSE(run.saved_step(0));
  EXPECT_FALSE(run.staged_step(0));
}

// A finished sweep leaves neither file behind.
TEST(FrontierRunDir, FinishRemovesStagedCheckpoints) {
  test::TempDir tmp;
  auto run = FrontierRunDir::create(tmp / "run", closed_6x7(), RunManifest{}, 0);
  run.save(1, state_at(10));
  run.stage(1, state_at(12));
  run.finish(1, BigCount::parse("42"));
  EXPECT_FALSE(run.saved_step(1));
  EXPECT_FALSE(run.staged_step(1));
  EXPECT_EQ(run.finished(1)->str(), "42");
}

}  // namespace
}  // namespace knightstour
