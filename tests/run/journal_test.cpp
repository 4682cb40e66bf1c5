#include "knightstour/run/journal.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "knightstour/base/errors.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using test::TempDir;

JournalRecord record(std::size_t id, std::uint64_t tours) {
  JournalRecord r;
  r.id = id;
  r.squares = "a1,b3";
  r.tours = tours;
  r.closed = tours / 2;
  r.nodes = 1000 + id;
  r.seconds = 0.25;
  r.file = "tours-0-" + std::to_string(id) + ".npy";
  r.file_rows = tours * 3;
  r.file_bytes = 128 + r.file_rows * 36;
  return r;
}

TEST(Journal, RoundTrip) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  {
    JournalWriter w(path, JournalKind::enumerate, 36);
    w.append({record(0, 10), record(1, 20)});
    w.append({record(5, 0)});
    w.sync();
  }
  const auto j = read_journal(path, JournalKind::enumerate, 36);
  EXPECT_FALSE(j.torn_tail);
  ASSERT_EQ(j.records.size(), 3u);
  EXPECT_EQ(j.records[1], record(1, 20));
  EXPECT_EQ(j.records[2].id, 5u);
}

// Journals written before lines recorded their file's rows and size still read; the two
// fields are then 0 (unknown), and the file is checked by counting its rows.
TEST(Journal, VersionOneLinesReadWithoutFileRowsAndSize) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  std::ofstream(path) << "# knightstour journal v1 (enumerate): id\tsquares\ttours\tclosed\t"
                         "nodes\tseconds\tfile\n"
                         "7\ta1,b3\t4\t2\t99\t0.5\ttours-0-0.npy\n";
  const auto j = read_journal(path, JournalKind::enumerate, 36);
  ASSERT_EQ(j.records.size(), 1u);
  EXPECT_EQ(j.records[0].file, "tours-0-0.npy");
  EXPECT_EQ(j.records[0].file_rows, 0u);
  EXPECT_EQ(j.records[0].file_bytes, 0u);
  std::ofstream(path) << "7\ta1,b3\t4\t2\t99\t0.5\ttours-0-0.npy\t12\n";  // 8 fields
  EXPECT_THROW(read_journal(path, JournalKind::enumerate, 36), FormatError);
}

TEST(Journal, CountRecordsCarryCountsByLastSquare) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  JournalRecord r = record(3, 7);
  r.file.clear();
  r.by_end = {0, 3, 4, 0};
  r.closed = 3;
  {
    JournalWriter w(path, JournalKind::count, 4);
    w.append({r});
  }
  const auto j = read_journal(path, JournalKind::count, 4);
  ASSERT_EQ(j.records.size(), 1u);
  EXPECT_EQ(j.records[0].by_end, r.by_end);
}

TEST(Journal, TornLastLineIsReportedNotParsed) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  {
    JournalWriter w(path, JournalKind::enumerate, 36);
    w.append({record(0, 10)});
  }
  const auto good = std::filesystem::file_size(path);
  std::ofstream(path, std::ios::app) << "1\ta1,b3\t2";  // a write cut short
  const auto j = read_journal(path, JournalKind::enumerate, 36);
  EXPECT_TRUE(j.torn_tail);
  EXPECT_EQ(j.records.size(), 1u);
  EXPECT_EQ(j.valid_bytes, good);
}

// An append that a file size limit stops partway (as a full disk does) throws and leaves
// the journal as it was: whole lines only, nothing torn for verify to find.
TEST(Journal, AFailedAppendLeavesNoTornLine) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  JournalWriter w(path, JournalKind::enumerate, 36);
  w.append({record(0, 10)});
  const auto good = std::filesystem::file_size(path);
  // Room for part of the next records only; SIGXFSZ ignored, so write(2) fails with EFBIG.
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old_limit{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  rlimit tight = old_limit;
  tight.rlim_cur = static_cast<rlim_t>(good + 40);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &tight), 0);
  EXPECT_THROW(w.append({record(1, 20), record(2, 30)}), IoError);
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(std::filesystem::file_size(path), good);
  const auto j = read_journal(path, JournalKind::enumerate, 36);
  EXPECT_FALSE(j.torn_tail);
  EXPECT_EQ(j.records.size(), 1u);
  // The writer goes on where the last whole line ends.
  w.append({record(3, 40)});
  EXPECT_EQ(read_journal(path, JournalKind::enumerate, 36).records.size(), 2u);
}

TEST(Journal, MalformedLinesAreFormatErrors) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  for (const char* bad :
       {"x\ta1\t1\t0\t5\t0.1\tf.npy\n", "1\ta1\t1\t0\t5\n", "1\ta1\t1\t2\t5\t0.1\tf.npy\n",
        "1\ta1\t-1\t0\t5\t0.1\tf.npy\n", "1\ta1\t1\t0\t5\t0.1\t../f.npy\n"}) {
    std::ofstream(path) << journal_header(JournalKind::enumerate, 36) << bad;
    EXPECT_THROW(read_journal(path, JournalKind::enumerate, 36), FormatError) << bad;
  }
  std::ofstream(path) << journal_header(JournalKind::count, 2) << "1\ta1\t5\t0\t5\t0.1\t1\t1\n";
  EXPECT_THROW(read_journal(path, JournalKind::count, 2), FormatError);  // 1 + 1 != 5
}

}  // namespace
}  // namespace knightstour
