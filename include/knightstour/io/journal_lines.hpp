#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// A journal, as both methods keep one (run/journal.hpp, frontier_run/sweep_journal.hpp): a
// text file of tab-separated lines, appended to whole lines at a time, each append one
// write(2), so that a crash leaves at most one last line without its newline. That torn line
// is reported, never read: its record was never written.
struct JournalLine {
  std::size_t number = 0;  // from 1
  std::string_view text;   // without its newline
};

struct JournalLines {
  std::vector<JournalLine> lines;  // the whole lines, in order
  std::uint64_t valid_bytes = 0;   // up to the end of the last whole line
  bool torn_tail = false;          // bytes after the last newline
};

// The whole lines of `text` (the views point into it).
JournalLines whole_lines(std::string_view text);

// A line's tab-separated fields (one empty field for an empty line).
std::vector<std::string_view> tab_fields(std::string_view line);

// A checksummed line's body: the line less its last field, when that field is
// keyed_checksum(key, body) (base/checksum.hpp); nothing when it is not, or there is no tab.
std::optional<std::string_view> checked_body(std::string_view line, const std::string& key);

// Writes `lines` (whole lines) at the end of `file` in one write, fsynced when `durable`. When
// the write or the fsync fails (a full disk, a file size limit) the file is cut back to its
// size before, so that it holds whole lines only and the caller can treat the lines as never
// written, and the IoError is rethrown.
void append_whole_lines(PosixFile& file, std::string_view lines, bool durable);

}  // namespace knightstour
