#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// A frontier run directory's journal (run_layout::kSweepJournal), appended to as the run
// goes, so that a finished sweep costs one short line rather than a rewrite of the manifest:
//   # knightstour sweep journal v1 ...                       (header)
//   finished    SWEEP  COUNT                             CHECK
//   checkpoint  SWEEP  STEP   CLASSES  DATA_CHECKSUM     CHECK
// tab-separated; CHECK is keyed_checksum() of the run's frontier_job_key() and the rest of the
// line, so a line of another run, an edited line or a damaged one is refused. A checkpoint line
// records a checkpoint before its file takes its name: a checkpoint resumes only when a line
// records its sweep, step, classes and data checksum, so a file whose header was changed (its
// own checksums recomputed) is refused, never counted. Each append is one write(2), so a
// crash leaves at most one torn last line, which readers leave out.
struct CheckpointRecord {
  int sweep = 0;
  int step = 0;
  std::uint64_t classes = 0;
  std::uint64_t data_checksum = 0;
  friend bool operator==(const CheckpointRecord&, const CheckpointRecord&) = default;
  bool records(const CheckpointHeader& h) const {
    return h.sweep == sweep && h.next_step == step && h.classes == classes &&
           h.data_checksum == data_checksum;
  }
};

struct SweepJournalContents {
  std::map<int, std::string> finished;  // sweep -> its count (decimal)
  std::vector<CheckpointRecord> checkpoints;
  std::uint64_t valid_bytes = 0;  // up to the end of the last whole line
  bool torn_tail = false;         // bytes after the last newline (a write cut by a crash)
};

// Reads the journal at `path` (empty contents when there is none). FormatError naming the
// file and line for a line that does not check out against `key`, a malformed line, or a
// sweep finished twice with two counts.
SweepJournalContents read_sweep_journal(const std::filesystem::path& path, const std::string& key);

// Appends to the journal at `path` (created with its header on the first append; a torn last
// line is cut first). A checkpoint's line is durable when checkpoint() returns (its file takes
// its name next). A finished sweep's line survives the process at once (it is in the file),
// and a crash of the machine once synced: within a second, or at sync(). Syncing each of
// 6,325 short sweeps (3x100 by end pairs) would cost more than counting them.
class SweepJournalWriter {
 public:
  SweepJournalWriter(std::filesystem::path path, std::string key)
      : path_(std::move(path)), key_(std::move(key)) {}
  void finished(int sweep, const std::string& count);
  void checkpoint(const CheckpointRecord& record);
  void sync();  // every line appended is durable when it returns

 private:
  void append(const std::string& body, bool durable);
  std::filesystem::path path_;
  std::string key_;
  PosixFile file_;  // opened on the first append
  bool unsynced_ = false;
  std::chrono::steady_clock::time_point synced_at_{};
};

}  // namespace knightstour
