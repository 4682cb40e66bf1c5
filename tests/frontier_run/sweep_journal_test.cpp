#include "knightstour/frontier_run/sweep_journal.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/manifest.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

namespace fs = std::filesystem;

const std::string kKey = "knightstour-frontier|6x6|all|open||rank 0 of 1 run 0123456789abcdef";

TEST(SweepJournal, ReadsBackWhatWasAppended) {
  test::TempDir dir;
  const fs::path path = dir / "sweeps.tsv";
  EXPECT_TRUE(read_sweep_journal(path, kKey).finished.empty());  // none yet: empty
  SweepJournalWriter w(path, kKey);
  w.finished(3, "12");
  w.checkpoint({4, 17, 500, 0xfeedfacecafebeefull});
  w.finished(5, "123456789012345678901234567890");
  const SweepJournalContents c = read_sweep_journal(path, kKey);
  ASSERT_EQ(c.finished.size(), 2u);
  EXPECT_EQ(c.finished.at(3), "12");
  EXPECT_EQ(c.finished.at(5), "123456789012345678901234567890");
  ASSERT_EQ(c.checkpoints.size(), 1u);
  EXPECT_EQ(c.checkpoints[0], (CheckpointRecord{4, 17, 500, 0xfeedfacecafebeefull}));
  EXPECT_FALSE(c.torn_tail);
}

// A line of another run (another key), an edited line or a malformed one is refused, naming
// the line; a torn last line (a crash mid-append) is left out, and cut by the next writer.
TEST(SweepJournal, RefusesWhatDoesNotCheckOutAndLeavesOutATornTail) {
  test::TempDir dir;
  const fs::path path = dir / "sweeps.tsv";
  {
    SweepJournalWriter w(path, kKey);
    w.finished(3, "12");
  }
  EXPECT_THROW(read_sweep_journal(path, kKey + "x"), FormatError);
  std::string text = read_small_file(path);
  const std::string good = text;
  text.replace(text.find("\t12\t"), 4, "\t13\t");
  std::ofstream(path) << text;
  try {
    read_sweep_journal(path, kKey);
    FAIL() << "an edited count was read";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2 does not check out"), std::string::npos)
        << e.what();
  }
  std::ofstream(path) << good << "finished\t4\t1";  // torn
  const SweepJournalContents c = read_sweep_journal(path, kKey);
  EXPECT_TRUE(c.torn_tail);
  EXPECT_EQ(c.finished.size(), 1u);
  SweepJournalWriter w(path, kKey);
  w.finished(4, "7");
  EXPECT_EQ(read_sweep_journal(path, kKey).finished.at(4), "7");
  EXPECT_FALSE(read_sweep_journal(path, kKey).torn_tail);
}

// A sweep finished twice must say the same count both times.
TEST(SweepJournal, ASweepFinishedTwiceWithTwoCountsIsRefused) {
  test::TempDir dir;
  const fs::path path = dir / "sweeps.tsv";
  SweepJournalWriter w(path, kKey);
  w.finished(3, "12");
  w.finished(3, "12");
  EXPECT_EQ(read_sweep_journal(path, kKey).finished.at(3), "12");
  w.finished(3, "13");
  EXPECT_THROW(read_sweep_journal(path, kKey), FormatError);
}

// Numbers as the writer writes them only: a sweep "03" is no sweep.
TEST(SweepJournal, NumbersAreReadAsWritten) {
  test::TempDir dir;
  const fs::path path = dir / "sweeps.tsv";
  {
    SweepJournalWriter w(path, kKey);
    w.finished(3, "12");
  }
  const std::string text = read_small_file(path);
  const std::string header = text.substr(0, text.find('\n') + 1);
  for (const std::string body : {"finished\t03\t12", "finished\t-1\t12", "finished\t3\t012",
                                 "finished\t3\t1e3", "checkpoint\t3\t4\t5\tzz", "other\t3\t4"}) {
    std::ofstream(path) << header << body << '\t' << keyed_checksum(kKey, body) << '\n';
    EXPECT_THROW(read_sweep_journal(path, kKey), FormatError) << body;
  }
}

}  // namespace
}  // namespace knightstour
