#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/board/symmetry.hpp"
#include "knightstour/search/search_mode.hpp"

namespace knightstour {

struct Caps {
  std::uint64_t max_nodes = 0;  // 0: no cap
  std::uint64_t max_tours = 0;  // 0: no cap
  double time_limit = 0;        // seconds, 0: no limit

  friend bool operator==(const Caps&, const Caps&) = default;
};

// The subset of prefixes {id : id mod count == index}.
struct Shard {
  int index = 0;
  int count = 1;

  bool contains(std::size_t id) const {
    return id % static_cast<std::size_t>(count) == static_cast<std::size_t>(index);
  }
  friend bool operator==(const Shard&, const Shard&) = default;
};

// What a count or enumerate run is asked to do.
struct JobSpec {
  Board board{1, 1};
  bool all_starts = false;
  std::vector<std::uint8_t> prefix;  // prefix[0] is the start square (unless all_starts)
  SearchMode mode;
  int split_depth = -1;  // -1: chosen by choose_split_depth
  int threads = 0;       // 0: every core the process may use
  bool symmetry = true;  // derive the counts of mirror-image prefixes instead of searching
  Caps caps;
  Shard shard;

  // The paths the prefixes extend: every square for all_starts, else the prefix.
  std::vector<std::vector<std::uint8_t>> roots() const;
};

// Throws UsageError unless `path` is a knight path without repeated squares.
void validate_path(const Board& board, std::span<const std::uint8_t> path, const char* what);

// CPUs in this process's affinity mask (as Slurm or taskset restrict it), at least 1.
int available_cpus();

// The smallest depth giving at least 64 searched prefixes per thread, so work stealing can
// balance uneven subtrees. A sharded run assumes 16 threads per shard whatever the machine,
// so all shards agree. Depends only on its arguments.
int choose_split_depth(const JobSpec& job, int threads);

}  // namespace knightstour

namespace knightstour {

// Fills in the defaults: threads (available_cpus) and split depth (choose_split_depth).
// Validates the prefix, the shard and the depth; throws UsageError.
void resolve(JobSpec& job);

// The symmetries a run may use to derive prefixes from their mirror images: the whole
// board group for all starts, the symmetries fixing the prefix otherwise, identity only
// when symmetry is off or the algorithm is naive (it shows the unreduced search).
std::vector<Symmetry> search_group(const JobSpec& job);

}  // namespace knightstour
