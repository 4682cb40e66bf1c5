#include "knightstour/run/run_directory.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "knightstour/base/errors.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/run_layout.hpp"
#include "knightstour/run/verify.hpp"
#include "support/run_helpers.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

namespace fs = std::filesystem;
using test::enumerate_session;
using test::TempDir;

std::vector<fs::path> tour_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("tours-", 0) == 0) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A partial 6x6 a1 run (node cap) whose finished files each hold several prefixes.
void partial_run(const fs::path& dir) {
  Caps caps;
  caps.max_nodes = 1'500'000;
  const auto r = enumerate_session(dir, "6x6", "a1", false, caps, {}, 6, TourFormat::npy, 1000);
  ASSERT_FALSE(r.report.complete());
  ASSERT_GT(r.report.prefixes_done, 10u);
}

void expect_resumes_to_the_full_count(const fs::path& dir) {
  const auto r = enumerate_session(dir, "6x6", "a1", true, {}, {}, 6);
  EXPECT_TRUE(r.report.complete());
  EXPECT_EQ(r.report.tours, 524'486u);
  const auto v = verify_run_directory(dir);
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.tours, 524'486u);
}

TEST(RunDirectory, NewRunRefusesAnOccupiedDirectory) {
  TempDir dir;
  partial_run(dir.path());
  EXPECT_THROW(RunDirectory::create(dir.path()), UsageError);
  EXPECT_THROW(RunDirectory::open(dir / "elsewhere"), UsageError);
}

TEST(RunDirectory, SecondProcessIsLockedOut) {
  TempDir dir;
  partial_run(dir.path());
  auto held = RunDirectory::open(dir.path());
  EXPECT_THROW(RunDirectory::open(dir.path()), UsageError);
}

// The directory itself is locked: removing .lock (or replacing it) lets no second writer in.
TEST(RunDirectory, LockHoldsWithoutTheLockFile) {
  TempDir dir;
  partial_run(dir.path());
  auto held = RunDirectory::open(dir.path());
  std::filesystem::remove(dir.path() / ".lock");
  EXPECT_THROW(RunDirectory::open(dir.path()), UsageError);
}

// The lock is taken before the directory is looked at: a process that looked first could find
// it empty, lose the race for the lock to one that then writes a run, and write over it.
// Seen from outside: while another process holds the lock, a new run is told the directory is
// in use (it did not get as far as looking), whatever the directory holds.
TEST(RunDirectory, NewRunTakesTheLockBeforeLooking) {
  TempDir dir;
  partial_run(dir.path());
  auto held = RunDirectory::open(dir.path());
  try {
    RunDirectory::create(dir.path());
    FAIL() << "create succeeded on a locked directory";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another knightstour process"),
              std::string::npos)
        << e.what();
  }
}

TEST(RunDirectory, RecoveryRemovesTempFilesAndOrphans) {
  TempDir dir;
  partial_run(dir.path());
  const auto files = tour_files(dir.path());
  ASSERT_FALSE(files.empty());
  // A crash after publishing a file but before journaling it, and one mid-write.
  fs::copy_file(files[0], dir / "tours-0-999.npy");
  std::ofstream(dir / "tours-0-1000.npy.tmp") << "half a file";
  auto d = RunDirectory::open(dir.path());
  const auto rec = d.recover(read_manifest(dir.path()));
  EXPECT_FALSE(fs::exists(dir / "tours-0-999.npy"));
  EXPECT_FALSE(fs::exists(dir / "tours-0-1000.npy.tmp"));
  EXPECT_EQ(rec.cleaned.size(), 2u);
  EXPECT_EQ(rec.next_part, 1000u);  // past every number seen, orphans included
}

TEST(RunDirectory, RecoveryDropsTornAndUnbackedJournalLines) {
  TempDir dir;
  partial_run(dir.path());
  const auto journal = dir / "journal-0.tsv";
  const auto before = read_journal(journal, journal_format(read_manifest(dir.path()))).records;
  // Find a file that holds several prefixes, then lose one of its journal lines: the file
  // can no longer be trusted, so it and all its lines go.
  std::map<std::string, int> per_file;
  for (const auto& r : before) per_file[r.file] += r.file == "-" ? 0 : 1;
  std::string victim;
  for (const auto& [f, n] : per_file) {
    if (n >= 2) victim = f;
  }
  ASSERT_FALSE(victim.empty());
  {
    std::ifstream in(journal);
    std::string text, line;
    bool dropped = false;
    while (std::getline(in, line)) {
      if (!dropped && line.find(victim) != std::string::npos) {
        dropped = true;
        continue;
      }
      text += line + "\n";
    }
    text += "77\ta1,b3\t12";  // and a torn last line
    std::ofstream(journal) << text;
  }
  auto d = RunDirectory::open(dir.path());
  const auto rec = d.recover(read_manifest(dir.path()));
  EXPECT_FALSE(fs::exists(dir / victim));
  for (const auto& r : rec.records) EXPECT_NE(r.file, victim);
  EXPECT_EQ(rec.records.size(), before.size() - static_cast<std::size_t>(per_file[victim]));
  const auto after = read_journal(journal, journal_format(read_manifest(dir.path())));
  EXPECT_FALSE(after.torn_tail);
  EXPECT_EQ(after.records.size(), rec.records.size());
}

TEST(RunDirectory, ResumeAfterDamageEndsWithExactlyTheFullSet) {
  TempDir dir;
  partial_run(dir.path());
  const auto files = tour_files(dir.path());
  fs::remove(files.back());  // a lost file: its prefixes are searched again
  std::ofstream(dir / "tours-0-1000.npy.tmp") << "junk";
  expect_resumes_to_the_full_count(dir.path());
}

TEST(RunDirectory, ResumeChecksTheJournalAgainstThePlan) {
  TempDir dir;
  partial_run(dir.path());
  std::ofstream(dir / "journal-0.tsv", std::ios::app)
      << "3\ta1,b3,a5,c6,e5,f3,e1\t0\t0\t1\t0.1\t-\n";
  EXPECT_THROW(enumerate_session(dir.path(), "6x6", "a1", true, {}, {}, 6), FormatError);
}

// A merge's output is built beside its place and renamed there whole.
TEST(NewRunDirectory, IsBuiltBesideItsPlaceAndRenamedThere) {
  test::TempDir tmp;
  const fs::path out = tmp / "merged";
  fs::create_directories(tmp / "merged.tmp");  // left by a merge that was killed
  std::ofstream(tmp / "merged.tmp" / "manifest.json") << "half";
  {
    NewRunDirectory built = NewRunDirectory::begin(out, "choose another");
    EXPECT_EQ(built.path(), tmp / "merged.tmp");
    EXPECT_FALSE(fs::exists(built.path() / "manifest.json"));
    EXPECT_FALSE(fs::exists(out));
    std::ofstream(built.path() / "manifest.json") << "whole";
    built.publish();
  }
  EXPECT_TRUE(fs::exists(out / "manifest.json"));
  EXPECT_FALSE(fs::exists(tmp / "merged.tmp"));
  EXPECT_THROW(NewRunDirectory::begin(out, "choose another"), UsageError);
  fs::create_directories(tmp / "empty");
  NewRunDirectory::begin(tmp / "empty", "x").publish();  // an empty folder is taken
  EXPECT_TRUE(fs::exists(tmp / "empty" / run_layout::kLock));
}

}  // namespace
}  // namespace knightstour
