#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/frontier/frontier_request.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"
#include "knightstour/frontier_run/sweep_journal.hpp"

namespace knightstour {

// What a frontier run directory holds, read and checked once: the one reading that verify,
// --resume and merge share, so that they refuse the same things. Every refusal is a
// FormatError naming the directory or file and what is wrong:
// - the manifest (its checksum; a board that is not its rows x cols; a job it cannot be);
// - the plan: sweeps_planned other than the job's (planned_sweeps), a sweep finished that the
//   plan or the shard's deal does not have, a count that does not follow from its sweeps;
// - the sweep journal (sweep_journal.hpp): a line that does not check out, a sweep finished
//   there with another count than the manifest's;
// - the files: a name of the run's own kinds that the run cannot have written (an odd
//   checkpoint name such as checkpoint-01.bin, a checkpoint of a sweep outside the plan, a
//   staged one in a run of one process, a rank-*/ folder or ranks.json inside a run), a
//   checkpoint of another job, owner or run, or one that no journal line records as written
//   (a forged or foreign header).
// Files of other names (a README beside the manifest) are left alone.
struct FrontierRunFiles {
  FrontierManifest manifest;  // the journal's finished sweeps folded in
  FrontierRequest request;
  CheckpointJob job;
  SweepJournalContents journal;
  // Checkpoints that a resume may continue from, by sweep (headers only: the data is checked
  // as it is read).
  std::map<int, CheckpointHeader> checkpoints;
  std::map<int, CheckpointHeader> staged;  // runs over MPI ranks
  // What nothing reads again and a resume removes: temp files, spill/, checkpoints of
  // finished sweeps.
  std::vector<std::string> leftovers;
  // One line per thing checked, for verify.
  std::vector<std::string> checked;
};

FrontierRunFiles read_frontier_run(const std::filesystem::path& dir);

// The directory of a count over `ranks` MPI ranks (ranks.json and a rank-<r>/ a rank) holds
// no share of a rank the run does not have, and no manifest of its own; FormatError else.
void check_ranked_top(const std::filesystem::path& top, int ranks);

}  // namespace knightstour
