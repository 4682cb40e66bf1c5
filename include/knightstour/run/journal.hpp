#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// One finished prefix, as one tab-separated line of journal-<shard>.tsv:
//   id  squares  tours  closed  nodes  seconds  then  file  file_rows  file_bytes (enumerate;
//                                                     journals v1 lack the last two)
//                                              or    one count per square: tours by last square
//                                              (count)
struct JournalRecord {
  std::size_t id = 0;
  std::string squares;  // "a1,b3,c5"
  std::uint64_t tours = 0;
  std::uint64_t closed = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::string file;                   // enumerate: the tour file holding this prefix's tours
  std::uint64_t file_rows = 0;        // enumerate: that file's tours, all its prefixes together
  std::uint64_t file_bytes = 0;       // enumerate: that file's size ("-" file or unknown: 0)
  std::vector<std::uint64_t> by_end;  // count: tours by last square

  friend bool operator==(const JournalRecord&, const JournalRecord&) = default;
};

enum class JournalKind { count, enumerate };

// How a run's journal is written: its kind, its board's squares (count: columns by last
// square) and, in a run of manifest format 5 on (RunManifest::checksums), the run's job key
// (dfs_job_key): journal v3 ends every line with a checksum of the line keyed by it, so that
// an edited line, or a line of another job or shard, does not check out. Empty key: journal
// v1/v2, lines without checksums (runs of manifest formats 1 to 3).
struct JournalFormat {
  JournalKind kind = JournalKind::count;
  int squares = 0;
  std::string key;
};

std::string journal_line(const JournalRecord& record, const JournalFormat& format);

// Appends records; each append is one write(2), so a crash leaves at most one torn last line,
// and an append that fails (a full disk, a file size limit, a failed fsync) is cut back to
// the last whole line before it: the caller can then treat its records as never written.
class JournalWriter {
 public:
  JournalWriter(const std::filesystem::path& path, JournalFormat format);
  // Thread-safe; `durable`: fsync before returning.
  void append(const std::vector<JournalRecord>& records, bool durable = false);
  void sync();  // fsync

 private:
  std::mutex mutex_;
  PosixFile file_;
  JournalFormat format_;
};

struct JournalContents {
  std::vector<JournalRecord> records;
  std::uint64_t valid_bytes = 0;  // bytes up to the end of the last complete line
  bool torn_tail = false;         // bytes after the last newline (a write cut by a crash)
};

// Reads a journal. A final line without its newline is reported as torn, not parsed; any
// other malformed line, or one whose checksum does not check out, is a FormatError naming
// the file and line.
JournalContents read_journal(const std::filesystem::path& path, const JournalFormat& format);

// The header comment every journal starts with.
std::string journal_header(const JournalFormat& format);

}  // namespace knightstour
