#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/exec/run_totals.hpp"
#include "knightstour/plan/job.hpp"
#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour {

// What a count or enumerate command asks of a run directory.
struct RunRequest {
  std::filesystem::path dir;
  bool resume = false;
  std::string command;                     // "count" or "enumerate"
  JobSpec job;                             // split_depth -1 and threads 0 when not given
  std::optional<TourFormat> format;        // enumerate; default npy (or the manifest's)
  std::optional<Compression> compression;  // enumerate; default none (or the manifest's)
  std::uint64_t part_size = std::uint64_t{1} << 30;
  double checkpoint_seconds = 60;
};

// One session on a run directory: creates it, or reopens it for --resume after checking
// that the request matches the manifest (a UsageError lists the differences) and undoing
// whatever an interrupted session left half done.
class RunSession {
 public:
  explicit RunSession(RunRequest request);

  const JobSpec& job() const { return job_; }  // resolved
  const RunManifest& manifest() const { return manifest_; }
  RunDirectory& directory() { return dir_; }
  const RunDirectory::Recovery& recovery() const { return recovery_; }
  std::size_t plan_size() const { return plan_size_; }

  // The recovered records indexed by prefix id (checked against the prefix plan).
  std::vector<std::optional<JournalRecord>> done_by_id() const;

  // Records the outcome of the session in manifest.json (atomically).
  void finish(const RunTotals& totals);

 private:
  JobSpec job_;  // before dir_: a new run's job is validated before the directory is made
  RunDirectory dir_;
  RunManifest manifest_;
  RunDirectory::Recovery recovery_;
  std::size_t plan_size_ = 0;
};

}  // namespace knightstour
