#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// How far read_committed() checks tour files against the journal lines that name them.
// Either way a file whose lines record its size (journal v2) must have that size.
enum class FileCheck {
  rows,   // a file counts only when it holds exactly the tours its lines give, by its recorded
          // size when the lines give one, else by counting its rows (recover, merge)
  names,  // only that it exists and is named (verify, which reads every row itself)
};

// The prefixes of a run directory that are durably done, and everything that is not:
// the one reading of journals that recover, merge and verify share. A journal line is
// committed when it is complete (not a torn last line) and, in an enumerate run, the tour
// file it names is finished and matches (see FileCheck).
struct CommittedJournal {
  std::vector<JournalRecord> records;        // committed lines, journal by journal
  std::vector<std::string> torn_journals;    // journals whose torn last line was left out
  std::vector<std::size_t> duplicates;       // prefix ids on more than one line
  std::vector<std::string> unnamed_files;    // finished tour files no line names
  std::vector<std::string> unmatched_files;  // named, but holding other tours than the lines say
  std::vector<std::string> missing_files;    // named by lines, but not there
  std::vector<std::string> temp_files;       // files of an unfinished write
  // Complete lines left out: their tour file is missing or unmatched, or they name no file
  // but claim tours.
  std::vector<JournalRecord> dropped;
  std::uint64_t next_part = 0;  // first part number no tour file uses
};

// How the run `manifest` describes writes its journal (kind, squares, checksum key).
JournalFormat journal_format(const RunManifest& manifest);

// Reads the journals of `dir` (only shard `shard`'s journal and files when given; a merged
// run holds several). A malformed line (not a torn last one) is a FormatError.
CommittedJournal read_committed(const std::filesystem::path& dir, const RunManifest& manifest,
                                std::optional<int> shard, FileCheck check);

// Rows in a finished tour file (the header for .npy, else by reading it). FormatError if the
// file is unreadable or its size disagrees with its header.
std::uint64_t count_tours_in_file(const std::filesystem::path& path, BoardShape shape);

}  // namespace knightstour
