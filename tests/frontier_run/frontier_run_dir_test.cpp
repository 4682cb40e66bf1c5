#include "knightstour/frontier_run/frontier_run_dir.hpp"

#include <gtest/gtest.h>

#include "knightstour/frontier/frontier_report.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "support/frontier_states.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

namespace fs = std::filesystem;
using test::state_at;

FrontierRequest closed_6x7() {
  FrontierRequest r;
  r.shape = {6, 7};
  r.closed = true;
  r.start = 0;
  return r;
}

FrontierRunDir reopen(const fs::path& dir) {
  return FrontierRunDir::open(RunDirectory::open(dir), read_frontier_run(dir), 600);
}

TEST(RunLayout, RankDirectoryNamesReadBack) {
  EXPECT_EQ(run_layout::rank_dir("run", 3), std::filesystem::path("run") / "rank-3");
  EXPECT_EQ(run_layout::parse_rank_dir_name("rank-3"), 3);
  EXPECT_EQ(run_layout::parse_rank_dir_name("rank-0"), 0);
  EXPECT_FALSE(run_layout::parse_rank_dir_name("rank-"));
  EXPECT_FALSE(run_layout::parse_rank_dir_name("rank-3x"));
  EXPECT_FALSE(run_layout::parse_rank_dir_name("rank--3"));
  EXPECT_FALSE(run_layout::parse_rank_dir_name("shard-3"));
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

// A rank's share is never resumed as a count: one that names its owner says so, and so does
// one written before owners were recorded, by its name and the ranks.json beside it.
TEST(FrontierRunDir, ARanksShareIsRefusedAsACount) {
  test::TempDir dir;
  FrontierManifest base;
  base.frontier.rank = 1;
  base.frontier.ranks = 2;
  base.frontier.run_id = "0123456789abcdef";
  const fs::path share = dir / "run" / "rank-1";
  fs::create_directories(share);
  {
    const FrontierRunDir run = FrontierRunDir::create(share, closed_6x7(), base, 600);
    const auto refusal = FrontierRunDir::share_refusal(share, run.manifest());
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(
        refusal->find("holds MPI rank 1's share of a count over 2 ranks, not a count: "
                      "resume the whole run with mpirun -np 2 knightstour count $run_dir DIR"),
        std::string::npos)
        << *refusal;
  }
  // Before owners were recorded: a manifest of one process's count, in rank-1/ of a run whose
  // ranks.json says 2.
  const fs::path old = dir / "old" / "rank-1";
  fs::create_directories(old);
  const FrontierRunDir run = FrontierRunDir::create(old, closed_6x7(), FrontierManifest{}, 600);
  EXPECT_FALSE(FrontierRunDir::share_refusal(old, run.manifest()).has_value());
  write_ranked_run(dir / "old", {2, ""});
  const auto refusal = FrontierRunDir::share_refusal(old, run.manifest());
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("holds MPI rank 1's share of a count over 2 ranks, not a count: resume "
                          "the whole run with mpirun -np 2 knightstour count $run_dir " +
                          (dir / "old").string() + " $resume"),
            std::string::npos)
      << *refusal;
}

// The two phases of a save over ranks: staging keeps the checkpoint, committing replaces it.
TEST(FrontierRunDir, StagedCheckpointReplacesTheOldOnlyWhenCommitted) {
  test::TempDir tmp;
  auto run = FrontierRunDir::create(tmp / "run", closed_6x7(), FrontierManifest{}, 0);
  run.save(0, state_at(10));
  run.stage(0, state_at(12));
  EXPECT_EQ(run.saved_step(0), 10);
  EXPECT_EQ(run.staged_step(0), 12);
  run.commit_staged(0);
  EXPECT_EQ(run.saved_step(0), 12);
  EXPECT_FALSE(run.staged_step(0));
  FrontierState saved;
  ASSERT_TRUE(run.saved(0, saved));
  EXPECT_EQ(saved.next_step, 12);
}

// What a resume over ranks keeps: the step they agreed on, from whichever file holds it.
TEST(FrontierRunDir, KeepStepTakesTheStagedCheckpointWhenItHoldsTheStep) {
  test::TempDir tmp;
  auto run = FrontierRunDir::create(tmp / "run", closed_6x7(), FrontierManifest{}, 0);
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
  auto run = FrontierRunDir::create(tmp / "run", closed_6x7(), FrontierManifest{}, 0);
  run.save(1, state_at(10));
  run.stage(1, state_at(12));
  run.finish(1, BigCount::parse("42"));
  EXPECT_FALSE(run.saved_step(1));
  EXPECT_FALSE(run.staged_step(1));
  EXPECT_EQ(run.finished(1)->str(), "42");
}

// Reading a finished run's counts again (count --resume) is no session: its manifest, often a
// committed record, stays byte for byte; an unfinished run opened again is a session more.
TEST(FrontierRunDir, AFinishedRunOpenedAgainIsNotWritten) {
  test::TempDir tmp;
  const fs::path dir = tmp / "run";
  FrontierReport done;  // 21 cycles: 42 closed tours from the start
  done.complete = true;
  done.tours = done.closed_tours = BigCount::parse("42");
  done.cycles = BigCount::parse("21");
  {
    auto run = FrontierRunDir::create(dir, closed_6x7(), FrontierManifest{}, 600);
    run.end_session(FrontierReport{}, 2, 1.0, 2.0);  // stopped: a second session follows
  }
  {
    auto run = reopen(dir);
    EXPECT_EQ(run.manifest().sessions, 2);
    run.finish(0, BigCount::parse("21"));
    run.end_session(done, 2, 1.0, 2.0);
  }
  const std::string finished = read_small_file(run_layout::manifest_path(dir));
  EXPECT_FALSE(fs::exists(dir / run_layout::kSweepJournal));  // the manifest holds it all
  {
    auto run = reopen(dir);
    EXPECT_EQ(run.manifest().sessions, 2);
    run.end_session(done, 2, 5.0, 9.0);
  }
  EXPECT_EQ(read_small_file(run_layout::manifest_path(dir)), finished);
  EXPECT_EQ(read_frontier_manifest(dir).frontier.tours, "42");
}

}  // namespace
}  // namespace knightstour
