#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace knightstour::run_layout {

// Every name in a run directory, in one place:
//   manifest.json                   what was asked, status, totals
//   journal-<shard>.tsv             one line per finished prefix
//   tours-<shard>-<part><extension> tour files (enumerate), e.g. tours-0-3.npy.zst
//   checkpoint-<sweep>.bin          (frontier) a sweep's classes between two steps
//   checkpoint-<sweep>.staged.bin   (frontier over MPI ranks) a newer checkpoint written while
//                                   the other ranks wrote theirs, not yet committed by all
//   sweeps.tsv                      (frontier) finished sweeps and checkpoints, a line each
//   spill/                          (frontier) classes past the memory budget, this session's
//   <name>.tmp                      a file being written (never part of the run)
//   .lock                           held (flock) by the process working on the run
//   frontier.json                   a frontier run of format 1 (before manifest version 3)
// A frontier count over N MPI ranks keeps, in its directory DIR:
//   ranks.json                      N and the run id that every rank's directory names
//   rank-<r>/                       rank r's share: an ordinary frontier run directory
inline constexpr const char* kManifest = "manifest.json";
inline constexpr const char* kLock = ".lock";
inline constexpr const char* kSpillDir = "spill";
inline constexpr const char* kSweepJournal = "sweeps.tsv";
inline constexpr const char* kOldFrontierJob = "frontier.json";
inline constexpr const char* kRanksFile = "ranks.json";
// The names above that mark a directory as holding a run, of any method (holds_run_file).
inline constexpr const char* kRunFileNames[] = {kManifest, kOldFrontierJob, kRanksFile,
                                                kSweepJournal};
std::filesystem::path rank_dir(const std::filesystem::path& dir, int rank);
// Whether `dir` is the directory of a count over MPI ranks: it holds ranks.json and no
// manifest of its own (each rank's share is in rank-<r>/). False where it cannot be read.
bool holds_ranked_shares(const std::filesystem::path& dir);
// The rank of a rank's directory name (rank-<r>); nothing for any other name.
std::optional<int> parse_rank_dir_name(const std::string& name);

std::filesystem::path manifest_path(const std::filesystem::path& dir);
std::string journal_name(int shard);
std::string tour_file_name(int shard, std::uint64_t part, const std::string& extension);
std::string checkpoint_name(int sweep);
std::string staged_checkpoint_name(int sweep);
// The sweep of a checkpoint's name, as checkpoint_name() writes it (checkpoint-01.bin and
// checkpoint--1.bin are no checkpoint's); nothing for any other name.
std::optional<int> parse_checkpoint_name(const std::string& name);
// The sweep of a staged checkpoint's name; nothing for any other name.
std::optional<int> parse_staged_checkpoint_name(const std::string& name);
// The sweep of a checkpoint's name, staged or not; nothing for any other name.
std::optional<int> parse_any_checkpoint_name(const std::string& name);

struct TourFileName {
  int shard = 0;
  std::uint64_t part = 0;
};
// The shard and part of a finished tour file's name; nothing for any other name.
std::optional<TourFileName> parse_tour_file_name(const std::string& name);
bool is_journal_name(const std::string& name);
bool is_temp_name(const std::string& name);
// Whether a directory already holds (part of) a run: a name of one of the kinds above.
bool holds_run_file(const std::string& name);

}  // namespace knightstour::run_layout
