#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// The one check of a directory a reader is given (status, verify, --resume, merge): a
// UsageError of one line when it does not exist, is not a directory, or cannot be listed
// (its error, e.g. "permission denied"), or when its manifest.json is there but is not a
// regular file.
void check_readable_run_path(const std::filesystem::path& dir);

// A run directory (names in run_layout.hpp). One process at a time holds it: flock on the
// directory itself and on its .lock file.
class RunDirectory {
 public:
  // For a new run: creates the directory if needed and refuses (UsageError) one that
  // already holds a run.
  // `occupied_hint` ends the message for a directory that already holds a run.
  static RunDirectory create(
      const std::filesystem::path& dir,
      const std::string& occupied_hint = "add $resume to continue it, or choose another directory");
  // For a resume or a read: the directory must hold a manifest.
  static RunDirectory open(const std::filesystem::path& dir);
  // The process holding the run in `dir` now (its lock, as /proc/locks lists it), read without
  // taking or touching the lock; nothing when none does or it cannot be told.
  static std::optional<int> holder(const std::filesystem::path& dir);

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path journal_path(int shard) const;

  struct Recovery {
    std::vector<JournalRecord> records;  // the prefixes that are durably done
    std::uint64_t next_part = 0;         // first unused part number
    std::vector<std::string> cleaned;    // what was removed, for the log
  };
  // Undoes what an interrupted session left half done: temp files, a torn journal line, tour
  // files whose prefixes are not all journaled (and those journal lines), journal lines whose
  // file is missing or holds a different number of tours. What survives is exactly the set
  // of finished prefixes, each with all its tours. A prefix journaled twice is a FormatError.
  Recovery recover(const RunManifest& manifest);

 private:
  explicit RunDirectory(std::filesystem::path dir);
  std::filesystem::path dir_;
  PosixFile dir_lock_;
  PosixFile lock_;
};

// A new run directory (merge's output) built whole under a temp name beside its place,
// DIR.tmp, and renamed to DIR once every file is in it: a process killed while building it
// leaves no run at DIR, and the next one removes what it left (unless a live process still
// holds it). DIR must not exist, or be an empty directory.
class NewRunDirectory {
 public:
  // UsageError when DIR holds anything, is no directory, or DIR.tmp is in use.
  static NewRunDirectory begin(const std::filesystem::path& dir, const std::string& occupied_hint);
  const std::filesystem::path& path() const { return building_.dir(); }  // DIR.tmp, locked
  const std::filesystem::path& destination() const { return destination_; }
  // Syncs the directory and renames it to DIR (durably); its lock goes with it.
  void publish();

 private:
  NewRunDirectory(std::filesystem::path destination, RunDirectory building)
      : destination_(std::move(destination)), building_(std::move(building)) {}
  std::filesystem::path destination_;
  RunDirectory building_;
};

}  // namespace knightstour
