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

// Journals of runs of manifest format 1 to 3 (no checksums), and of format 5 (keyed lines).
const JournalFormat kEnumerate{JournalKind::enumerate, 36, ""};
const JournalFormat kKeyed{JournalKind::enumerate, 36, "knightstour-dfs|enumerate|6x6|job"};

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
    JournalWriter w(path, kEnumerate);
    w.append({record(0, 10), record(1, 20)});
    w.append({record(5, 0)});
    w.sync();
  }
  const auto j = read_journal(path, kEnumerate);
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
  const auto j = read_journal(path, kEnumerate);
  ASSERT_EQ(j.records.size(), 1u);
  EXPECT_EQ(j.records[0].file, "tours-0-0.npy");
  EXPECT_EQ(j.records[0].file_rows, 0u);
  EXPECT_EQ(j.records[0].file_bytes, 0u);
  std::ofstream(path) << "7\ta1,b3\t4\t2\t99\t0.5\ttours-0-0.npy\t12\n";  // 8 fields
  EXPECT_THROW(read_journal(path, kEnumerate), FormatError);
}

TEST(Journal, CountRecordsCarryCountsByLastSquare) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  JournalRecord r = record(3, 7);
  r.file.clear();
  r.by_end = {0, 3, 4, 0};
  r.closed = 3;
  {
    JournalWriter w(path, {JournalKind::count, 4, ""});
    w.append({r});
  }
  const auto j = read_journal(path, {JournalKind::count, 4, ""});
  ASSERT_EQ(j.records.size(), 1u);
  EXPECT_EQ(j.records[0].by_end, r.by_end);
}

TEST(Journal, TornLastLineIsReportedNotParsed) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  {
    JournalWriter w(path, kEnumerate);
    w.append({record(0, 10)});
  }
  const auto good = std::filesystem::file_size(path);
  std::ofstream(path, std::ios::app) << "1\ta1,b3\t2";  // a write cut short
  const auto j = read_journal(path, kEnumerate);
  EXPECT_TRUE(j.torn_tail);
  EXPECT_EQ(j.records.size(), 1u);
  EXPECT_EQ(j.valid_bytes, good);
}

// An append that a file size limit stops partway (as a full disk does) throws and leaves
// the journal as it was: whole lines only, nothing torn for verify to find.
TEST(Journal, AFailedAppendLeavesNoTornLine) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  JournalWriter w(path, kEnumerate);
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
  const auto j = read_journal(path, kEnumerate);
  EXPECT_FALSE(j.torn_tail);
  EXPECT_EQ(j.records.size(), 1u);
  // The writer goes on where the last whole line ends.
  w.append({record(3, 40)});
  EXPECT_EQ(read_journal(path, kEnumerate).records.size(), 2u);
}

TEST(Journal, MalformedLinesAreFormatErrors) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  for (const char* bad :
       {"x\ta1\t1\t0\t5\t0.1\tf.npy\n", "1\ta1\t1\t0\t5\n", "1\ta1\t1\t2\t5\t0.1\tf.npy\n",
        "1\ta1\t-1\t0\t5\t0.1\tf.npy\n", "1\ta1\t1\t0\t5\t0.1\t../f.npy\n"}) {
    std::ofstream(path) << journal_header(kEnumerate) << bad;
    EXPECT_THROW(read_journal(path, kEnumerate), FormatError) << bad;
  }
  const JournalFormat count{JournalKind::count, 2, ""};
  std::ofstream(path) << journal_header(count) << "1\ta1\t5\t0\t5\t0.1\t1\t1\n";
  EXPECT_THROW(read_journal(path, count), FormatError);  // 1 + 1 != 5
}

// Lines keyed by the run's job (journal v3): they read back as written, and a line edited
// (even with every sum kept), of another job or shard, or without its checksum is refused;
// so are a header of another version and lines that are not records.
TEST(Journal, KeyedLinesCheckOut) {
  TempDir dir;
  const auto path = dir / "journal-0.tsv";
  {
    JournalWriter w(path, kKeyed);
    w.append({record(0, 10), record(1, 20)});
  }
  const auto j = read_journal(path, kKeyed);
  ASSERT_EQ(j.records.size(), 2u);
  EXPECT_EQ(j.records[1], record(1, 20));
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto refused = [&](const std::string& edited, const JournalFormat& format) {
    std::ofstream(path) << edited;
    EXPECT_THROW(read_journal(path, format), FormatError) << edited;
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  refused(replaced("\t20\t10\t", "\t30\t10\t"), kKeyed);                 // tours edited
  refused(text, {JournalKind::enumerate, 36, kKeyed.key + " shard 1"});  // another job
  refused(text, kEnumerate);  // a v3 journal in a run whose manifest has no checksums
  refused(journal_header(kKeyed) + journal_line(record(2, 5), kEnumerate), kKeyed);  // none
  refused(journal_header(kEnumerate) + journal_line(record(2, 5), kKeyed), kKeyed);  // v2 head
  refused(text + "# a comment\n", kKeyed);
  refused(text + "\n", kKeyed);
  // A torn last line is what a crash leaves: reported, not refused.
  std::ofstream(path) << text << "3\ta1,b3\t2";
  EXPECT_TRUE(read_journal(path, kKeyed).torn_tail);
}

}  // namespace
}  // namespace knightstour
