#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// A sweep's state between two steps, saved so that a run killed outright resumes there.
//
// File layout (little-endian, every field 8 bytes, so the arrays stay aligned):
//   magic "KTFRONT3" | rows | cols | closed | start + 1 (0: all starts) | sweep | next_step |
//   limbs K | parts P | classes | data checksum | header checksum | rank | ranks | run id |
//   1 reserved word (0)
//   P part sizes n_p (classes)
//   for each part with classes: its block offsets (blocks + 1 words), then its bytes in
//   compact form (compact_classes.hpp), padded with zeros to a whole word
// The header names the job and the sweep, and its own checksum covers it, so a checkpoint
// of another job or with a changed step is refused, never resumed from. The data checksum
// (a multiply-add over 64-bit words) covers everything after the header. Written to a temp
// file, synced and renamed over the last one: a crash leaves the old checkpoint or the new,
// never half; a failed write removes its temp file. Rank, ranks and run id say whose share
// of the sweep the file holds (a run over MPI ranks keeps one share a rank); files written
// before they were recorded hold 0 there, read as rank 0 of 1 with no run id.
struct FrontierState;  // frontier_counter.hpp: a sweep between two steps

inline constexpr std::int64_t kTotalOnlyStarts = -2;
inline constexpr std::int64_t kEndPairStarts = -3;      // all starts by units of end pairs
inline constexpr std::int64_t kEveryLengthStarts = -5;  // all starts, every length of a row
// A row as knightstour swept it before one sweep served every length of a kind (its open
// rows of an odd height took two): refused, as its sweeps are numbered and pruned otherwise.
inline constexpr std::int64_t kEveryLengthStartsBefore = -4;

struct CheckpointJob {
  int rows = 0;
  int cols = 0;
  bool closed = false;
  // Board square, or -1 for all starts (one pinned sweep per class of start squares), or
  // kTotalOnlyStarts for all starts counted as a total (one unpinned sweep; frontier_report.hpp),
  // or kEndPairStarts for all starts by units of end pairs (sweep k is unit k), or
  // kEveryLengthStarts for every length of the row rows x 1 .. rows x cols.
  std::int64_t start = -1;
  // Whose share of the job (frontier_manifest.hpp's FrontierProgress): rank `rank` of `ranks`, of
  // the run `run_id` (0: not recorded).
  int rank = 0;
  int ranks = 1;
  std::uint64_t run_id = 0;
  friend bool operator==(const CheckpointJob&, const CheckpointJob&) = default;
};

struct CheckpointHeader {
  CheckpointJob job;
  int sweep = 0;  // which sweep of the job (frontier_job's order)
  int next_step = 0;
  int limbs = 1;
  std::uint64_t parts = 0;
  std::uint64_t classes = 0;
  std::uint64_t data_checksum = 0;  // over everything after the header
};

struct WrittenCheckpoint {
  CheckpointHeader header;
  std::uint64_t bytes = 0;
};

// Writes `state` of sweep `sweep` of `job`. `before_publish`, when given, is called with the
// header once the file is whole and synced under its temp name, before it takes `path`: a
// run records there what it is about to publish (a crash between leaves the old file and a
// record of the new one, never a file nothing records). Throws IoError.
WrittenCheckpoint write_checkpoint(
    const std::filesystem::path& path, const CheckpointJob& job, int sweep,
    const FrontierState& state,
    const std::function<void(const CheckpointHeader&)>& before_publish = nullptr);

// Reads the header only (nothing when there is no file); throws FormatError when it is not a
// checkpoint, its header is damaged, or it is not a checkpoint of `job`.
std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& path,
                                                       const CheckpointJob& job);

// Opens the checkpoint of sweep `sweep` of `job` and returns the state it holds (its classes
// stay in the file, read a chunk at a time as the sweep expands them). Throws FormatError when the
// header, the checksum or the sizes do not match.
// `into` is a state to fill, so that a caller needs no more of it than this header says.
void load_checkpoint(const std::filesystem::path& path, const CheckpointJob& job, int sweep,
                     FrontierState& into);

// The steps of its sweep `state` has done (the step a sweep resumed from it starts at).
int next_step_of(const FrontierState& state);

// Reads the whole checkpoint and checks it as load_checkpoint does (for verify).
CheckpointHeader check_checkpoint(const std::filesystem::path& path, const CheckpointJob& job);

// "6x6 closed, start a1" (the count, not whose share of it).
std::string describe(const CheckpointJob& job);
// "MPI rank 0's share of a count over 2 ranks" or "a count of one process".
std::string describe_owner(const CheckpointJob& job);

// Keeps a job's progress across processes: the counts of finished sweeps and the state of
// the running one (frontier_run_dir.hpp keeps them in a directory). Called between steps,
// never per class.
class FrontierJournal {
 public:
  virtual ~FrontierJournal() = default;
  // The count of sweep `sweep` when an earlier process finished it.
  virtual std::optional<BigCount> finished(int sweep) = 0;
  virtual void finish(int sweep, const BigCount& count) = 0;
  // Where an earlier process left sweep `sweep`, when it saved it: fills `into` and says
  // whether it did.
  virtual bool saved(int sweep, FrontierState& into) = 0;
  virtual bool has_saved(int sweep) = 0;
  // After each step of sweep `sweep`; saves the state when a save is due.
  virtual void after_step(int sweep, const FrontierState& state) = 0;
  // Sweep `sweep` stopped (a time limit, a signal, the memory budget) with `state`, its last
  // whole step: saves it now unless a checkpoint holds that step already. Returns the step a
  // resume continues the sweep from (nothing: from its start).
  virtual std::optional<int> keep(int sweep, const FrontierState& state) = 0;
  // Sweep `sweep` ended without a count of its own to keep (every length a sweep across a
  // row passes is journaled as its own unit): its checkpoint is no longer needed.
  virtual void drop(int sweep) = 0;
};

}  // namespace knightstour
