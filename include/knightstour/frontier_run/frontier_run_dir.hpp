#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"
#include "knightstour/frontier_run/frontier_run_files.hpp"
#include "knightstour/frontier_run/sweep_journal.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour {

// A frontier count's run directory (names in run_layout): manifest.json with method
// "frontier" (the job, the counts of finished sweeps as of the session's start and end, and
// when complete the job's counts, all under the manifest's checksum), sweeps.tsv (a line for
// each sweep finished and each checkpoint written since, sweep_journal.hpp), one
// checkpoint-<sweep>.bin per sweep under way (the shared prefix of an all-starts job keeps its
// own while the pinned sweeps run), and spill/ for this session's spilled classes. The
// directory is locked (RunDirectory) for as long as this object lives. Every file is replaced
// atomically or appended to a line at a time, so kill -9 at any moment leaves a directory that
// resumes: from the last checkpoint, or from the start of the sweep. A complete run keeps its
// manifest alone.
class FrontierRunDir : public FrontierJournal {
 public:
  // A new run: locks `dir` (creating it) and refuses one that holds a run of either method;
  // writes the manifest (`base` gives provenance, threads and caps).
  static FrontierRunDir create(const std::filesystem::path& dir, const FrontierRequest& request,
                               const FrontierManifest& base, double checkpoint_seconds);
  // The run in the locked `dir`, as read_frontier_run() found it (`files`). A finished run is
  // only read: opening it is no session, and end_session leaves its manifest as it was.
  // Otherwise what nothing reads again (files.leftovers) is removed.
  static FrontierRunDir open(RunDirectory dir, FrontierRunFiles files, double checkpoint_seconds);

  // The manifest of a new run of `request` (`base` gives provenance, caps and the owner): one
  // session, nothing finished, a fresh run id unless `base` names one.
  static FrontierManifest new_manifest(const FrontierRequest& request,
                                       const FrontierManifest& base);
  // How a session ended, into `m`: the stop reason, and when complete the status and the
  // job's counts.
  static void record_outcome(FrontierManifest& m, const FrontierReport& report);
  // The request a frontier manifest describes (UsageError/FormatError when it cannot be one).
  static FrontierRequest request_of(const FrontierManifest& manifest);
  // The job (and whose share of it) a checkpoint in the run directory of `manifest` names.
  static CheckpointJob job_of(const FrontierManifest& manifest);
  // A fresh run id: 16 hex digits, random (frontier_manifest.hpp's FrontierProgress::run_id).
  static std::string new_run_id();
  // "DIR holds MPI rank r's share of a count over N ranks, not a count; ..." when the
  // manifest in `dir` is a rank's share: what to type instead (nothing when it is a count).
  // (`common`: its manifest as read_manifest() reads it; a frontier run's is read again whole.)
  static std::optional<std::string> share_refusal(const std::filesystem::path& dir,
                                                  const RunManifest& common);

  const FrontierRequest& request() const { return request_; }
  const FrontierManifest& manifest() const { return manifest_; }
  const std::filesystem::path& dir() const { return dir_.dir(); }
  // A fresh, empty spill/ folder (what a killed session spilled is removed first).
  std::filesystem::path fresh_spill_dir();
  // Removes spill/ (at the end of a session).
  void remove_spill_dir();

  // Records how the session ended in the manifest (with every sweep finished so far); a
  // complete job's counts go into it, and every checkpoint and the sweep journal are removed.
  // Writes nothing for a run that was finished when opened.
  void end_session(const FrontierReport& report, int threads, double seconds, double cpu_seconds);

  std::optional<BigCount> finished(int sweep) override;
  void finish(int sweep, const BigCount& count) override;
  bool saved(int sweep, FrontierState& into) override;
  bool has_saved(int sweep) override;
  void after_step(int sweep, const FrontierState& state) override;
  std::optional<int> keep(int sweep, const FrontierState& state) override;
  void drop(int sweep) override;
  // after_step's two halves, for a journal that decides with other ranks when to save.
  bool save_due() const;
  void save(int sweep, const FrontierState& state);
  // The step a checkpoint of `sweep` resumes at (nothing when there is none).
  std::optional<int> saved_step(int sweep);

  // A checkpoint in two phases, for ranks that must all keep the same step: stage() writes
  // the new one beside the checkpoint (which stays), commit_staged() replaces the checkpoint
  // with it once every rank has staged its own.
  void stage(int sweep, const FrontierState& state);
  void commit_staged(int sweep);
  // The step a staged checkpoint of `sweep` holds (nothing when there is none).
  std::optional<int> staged_step(int sweep);
  // Leaves the checkpoint of `sweep` at `step` (taking the staged one when that is the one
  // holding it) and nothing staged; with no step, no checkpoint of `sweep` at all.
  void keep_step(int sweep, std::optional<int> step);

 private:
  FrontierRunDir(RunDirectory dir, FrontierManifest manifest, double checkpoint_seconds,
                 std::vector<CheckpointRecord> records = {});
  std::filesystem::path checkpoint_path(int sweep) const;
  std::filesystem::path staged_path(int sweep) const;
  // The step the checkpoint at `path` resumes `sweep` at; FormatError when it holds another.
  std::optional<int> step_in(const std::filesystem::path& path, int sweep);
  // Writes `state` to `path` and says so (in the log) when that took long.
  void write_state(const std::filesystem::path& path, int sweep, const FrontierState& state);
  void write() const;
  // Removes these files (names in the directory) if they are there.
  void remove(const std::vector<std::string>& names);
  // Refuses (FormatError) a checkpoint whose header no journal line records.
  void check_recorded(const std::filesystem::path& path, const CheckpointHeader& header) const;

  RunDirectory dir_;
  FrontierManifest manifest_;
  FrontierRequest request_;
  CheckpointJob job_;
  SweepJournalWriter journal_;
  std::vector<CheckpointRecord> records_;  // every checkpoint the journal records
  double checkpoint_seconds_;
  std::chrono::steady_clock::time_point last_save_;
  // Finished when opened: its manifest (a committed record, often) is not written again.
  bool finished_when_opened_ = false;
};

// A frontier count over several MPI ranks (run_layout: DIR/ranks.json, DIR/rank-<r>/): what
// ranks.json says, the number of ranks and the run id that every rank's directory must name
// ("" in runs written before run ids existed).
struct RankedRun {
  int ranks = 0;
  std::string run_id;
};

// The run over ranks in `dir` (nothing when `dir` holds no ranks.json; FormatError when it
// is damaged).
std::optional<RankedRun> read_ranked_run(const std::filesystem::path& dir);
void write_ranked_run(const std::filesystem::path& dir, const RankedRun& run);

// Refuses (UsageError) a rank's directory `dir`, whose manifest is `m`, that is not rank
// `rank`'s share of `run`: one moved, copied from another rank or another run.
void check_rank_share(const std::filesystem::path& dir, const FrontierManifest& m,
                      const RankedRun& run, int rank);

}  // namespace knightstour
