#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// A run directory: manifest.json, journal-<shard>.tsv and tour files
// tours-<shard>-<part>.<ext>. One process at a time holds it (flock on ".lock").
class RunDirectory {
 public:
  // For a new run: creates the directory if needed and refuses (UsageError) one that
  // already holds a run.
  static RunDirectory create(const std::filesystem::path& dir);
  // For a resume or a read: the directory must hold a manifest.
  static RunDirectory open(const std::filesystem::path& dir);

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path journal_path(int shard) const;
  static std::string tour_file_name(int shard, std::uint64_t part, const std::string& extension);

  struct Recovery {
    std::vector<JournalRecord> records;  // the prefixes that are durably done
    std::uint64_t next_part = 0;         // first unused part number
    std::vector<std::string> cleaned;    // what was removed, for the log
  };
  // Undoes what an interrupted session left half done: temp files, a torn journal line, tour
  // files whose prefixes are not all journaled (and those journal lines), journal lines whose
  // file is missing or holds a different number of tours. What survives is exactly the set
  // of finished prefixes, each with all its tours.
  Recovery recover(const RunManifest& manifest);

 private:
  explicit RunDirectory(std::filesystem::path dir);
  std::filesystem::path dir_;
  PosixFile lock_;
};

// Rows in a finished tour file (the header for .npy, else by reading it). FormatError if
// the file is unreadable.
std::uint64_t count_tours_in_file(const std::filesystem::path& path, BoardShape shape);

}  // namespace knightstour
