#include "knightstour/frontier_run/frontier_run_files.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "support/frontier_states.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

namespace fs = std::filesystem;
using test::state_at;

// Shard 0 of 2 of 5x6 by units of end pairs (66 units: this shard has the even ones).
FrontierRequest shard_of_5x6() {
  FrontierRequest r;
  r.shape = {5, 6};
  r.grid = GridMethod::end_pairs;
  r.shard.index = 0;
  r.shard.count = 2;
  return r;
}

// The problem read_frontier_run() finds in `dir` ("" when none).
std::string refusal(const fs::path& dir) {
  try {
    read_frontier_run(dir);
    return "";
  } catch (const FormatError& e) {
    return e.what();
  }
}

class FrontierRunFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto run = FrontierRunDir::create(dir_, shard_of_5x6(), FrontierManifest{}, 0);
    run.finish(0, BigCount(12));
    run.finish(2, BigCount(34));
    run.save(4, state_at(10));
    run.end_session(FrontierReport{}, 1, 1.0, 1.0);  // stopped
  }
  void edit_manifest(const std::function<void(FrontierManifest&)>& edit) {
    FrontierManifest m = read_frontier_manifest(dir_);
    edit(m);
    write_manifest(dir_, m);  // its checksum made to match, as a forger would
  }
  test::TempDir tmp_;
  fs::path dir_ = tmp_ / "run";
};

TEST_F(FrontierRunFilesTest, ReadsTheRunWithItsJournal) {
  const FrontierRunFiles f = read_frontier_run(dir_);
  EXPECT_EQ(f.manifest.frontier.finished.size(), 2u);
  EXPECT_EQ(f.journal.finished.size(), 2u);
  ASSERT_EQ(f.checkpoints.count(4), 1u);
  EXPECT_EQ(f.checkpoints.at(4).next_step, 10);
  EXPECT_TRUE(f.leftovers.empty());
}

// The plan is the authority: the number of sweeps, and each sweep's place in the shard's deal.
TEST_F(FrontierRunFilesTest, RefusesWhatThePlanDoesNotHave) {
  edit_manifest([](FrontierManifest& m) { m.frontier.sweeps_planned = 70; });
  EXPECT_NE(refusal(dir_).find("plans 70 sweeps, and 5x6 open, all starts by end pairs has 66"),
            std::string::npos)
      << refusal(dir_);
  edit_manifest([](FrontierManifest& m) {
    m.frontier.sweeps_planned = 66;
    m.frontier.finished[1] = BigCount(5).str();  // shard 1's
  });
  EXPECT_NE(refusal(dir_).find("finishes sweep 1, which is not in the shard's deal"),
            std::string::npos)
      << refusal(dir_);
}

TEST_F(FrontierRunFilesTest, RefusesAJournalThatDisagreesWithTheManifest) {
  edit_manifest([](FrontierManifest& m) { m.frontier.finished[2] = BigCount(35).str(); });
  EXPECT_NE(refusal(dir_).find("finishes sweep 2 with another count than manifest.json"),
            std::string::npos)
      << refusal(dir_);
}

// Names of the run's own kinds that the run cannot have written are refused; others are not.
TEST_F(FrontierRunFilesTest, RefusesOddNamesAndLeavesOthersAlone) {
  const fs::path good = dir_ / run_layout::checkpoint_name(4);
  for (const std::string name :
       {"checkpoint-04.bin", "checkpoint--4.bin", "checkpoint-4.staged.bin", "checkpoint-5.bin",
        "checkpoint-200.bin", "ranks.json"}) {
    fs::copy_file(good, dir_ / name);
    EXPECT_FALSE(refusal(dir_).empty()) << name;
    fs::remove(dir_ / name);
  }
  fs::create_directory(dir_ / "rank-2");
  EXPECT_NE(refusal(dir_).find("rank-2: is not a file a frontier run of one process holds"),
            std::string::npos)
      << refusal(dir_);
  fs::remove(dir_ / "rank-2");
  std::ofstream(dir_ / "README.md") << "notes\n";
  EXPECT_EQ(refusal(dir_), "");
}

// A checkpoint resumes only when the journal records it: a checkpoint of the same job and
// run written outside the journal (its header forged, or the journal lost) is refused.
TEST_F(FrontierRunFilesTest, RefusesACheckpointTheJournalDoesNotRecord) {
  const FrontierManifest m = read_frontier_manifest(dir_);
  write_checkpoint(dir_ / run_layout::checkpoint_name(6), FrontierRunDir::job_of(m), 6,
                   state_at(11));
  EXPECT_NE(refusal(dir_).find("checkpoint-6.bin: is a checkpoint that no line of sweeps.tsv "
                               "records"),
            std::string::npos)
      << refusal(dir_);
}

// What an interrupted session left is read as such: temp files, spill/, and the checkpoint of a
// sweep the journal finished after it was written.
TEST_F(FrontierRunFilesTest, ListsWhatAnInterruptedSessionLeft) {
  std::ofstream(dir_ / "manifest.json.tmp") << "x";
  fs::create_directory(dir_ / run_layout::kSpillDir);
  {
    SweepJournalWriter w(dir_ / run_layout::kSweepJournal,
                         frontier_job_key(read_frontier_manifest(dir_)));
    w.finished(4, "56");
  }
  const FrontierRunFiles f = read_frontier_run(dir_);
  EXPECT_EQ(f.leftovers,
            (std::vector<std::string>{"checkpoint-4.bin", "manifest.json.tmp", "spill"}));
  EXPECT_EQ(f.manifest.frontier.finished.at(4), "56");
  EXPECT_TRUE(f.checkpoints.empty());
}

}  // namespace
}  // namespace knightstour
