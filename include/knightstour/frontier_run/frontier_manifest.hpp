#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/shard.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

// Where a frontier run stands: its section of the manifest. Counts are decimal strings: they
// outgrow 64 bits. The manifest's checksum covers these and the job, so a hand edit that
// would change the answer is refused rather than counted.
struct FrontierProgress {
  bool total_only = false;  // all starts counted as a total (one unpinned sweep), no grid
  // All starts by units of end pairs (frontier_request.hpp's GridMethod::end_pairs): sweep k is
  // unit k, and this directory counts the units of `shard` (its rule plays no part).
  bool end_pairs = false;
  Shard shard;
  // Every length of the row (count --every-length): the boards rows x n for n = 1 to cols.
  // Its units are lengths, not sweeps (frontier_job.hpp's row units): finished holds a count
  // a length, and a sweep across the rows keeps its checkpoint under a number past them.
  bool every_length = false;
  // A residue unit (count --modulus): every count below is taken modulo this prime (0: exact
  // counts). Such a manifest is written as format kResidueFormatVersion, which a knightstour
  // older than residues refuses instead of reading residues as counts.
  std::uint64_t modulus = 0;
  int sweeps_planned = 0;
  std::map<int, std::string> finished;  // sweep index -> that sweep's count
  // When complete: the job's counts, and per start square over all starts.
  std::string tours;
  std::string closed_tours;
  std::string closed_cycles;
  std::vector<std::string> tours_by_start;
  double checkpoint_seconds = 0;  // --checkpoint of the latest session; -1: not recorded
  // Whose files these are. A run over N MPI ranks keeps one directory a rank, each holding
  // that rank's share of every generation: a share is not a count, so a directory records
  // the rank it belongs to, of how many, and the id every rank of one run shares (random,
  // made when the run is created), and every checkpoint in it names the same three.
  int rank = 0;
  int ranks = 1;       // 1: a count of one process
  std::string run_id;  // 16 hex digits; "" in runs written before run ids existed
  friend bool operator==(const FrontierProgress&, const FrontierProgress&) = default;
};

// A frontier run's manifest: the common fields (RunManifest, method frontier; its
// enumerator's fields unused) and the frontier's section. Written as format 4 (3: before the
// sweep journal, read still); to_json() and from_json() hide RunManifest's.
struct FrontierManifest : RunManifest {
  static constexpr int kFrontierFormatVersion = 4;
  static constexpr int kResidueFormatVersion = 5;  // a residue unit's (FrontierProgress::modulus)
  FrontierProgress frontier;

  FrontierManifest() { method = Method::frontier; }
  explicit FrontierManifest(const RunManifest& common, FrontierProgress progress = {})
      : RunManifest(common), frontier(std::move(progress)) {
    method = Method::frontier;
  }

  std::string to_json() const;
  // FormatError naming `where`: not a frontier run's manifest, a field it would never write,
  // or a checksum that does not match.
  static FrontierManifest from_json(const std::string& text, const std::string& where);
};

FrontierManifest read_frontier_manifest(const std::filesystem::path& dir);  // IoError/FormatError
void write_manifest(const std::filesystem::path& dir, const FrontierManifest& manifest);

// A frontier run's job and owner as one line of text (board, starts, closed, total only,
// shard, rank and run id): what its checksums are keyed by, so that a file or a line of
// another job or run never checks out as this run's.
std::string frontier_job_key(const FrontierManifest& manifest);

// Whether `dir` holds a frontier run: its manifest names the method, or it is the directory
// of a count over MPI ranks (ranks.json, no manifest of its own), which only this method makes.
bool holds_frontier_run(const std::filesystem::path& dir);

}  // namespace knightstour
