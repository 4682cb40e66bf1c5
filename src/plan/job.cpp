#include "knightstour/plan/job.hpp"

#include <sched.h>

#include <algorithm>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/plan/prefix_plan.hpp"

namespace knightstour {

std::vector<std::vector<std::uint8_t>> JobSpec::roots() const {
  if (!all_starts) return {prefix};
  std::vector<std::vector<std::uint8_t>> out;
  for (int s = 0; s < board.squares(); ++s) out.push_back({static_cast<std::uint8_t>(s)});
  return out;
}

void validate_path(const Board& board, std::span<const std::uint8_t> path, const char* what) {
  if (path.empty()) throw UsageError(std::string(what) + " is empty");
  Bitboard seen = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const int s = path[i];
    if (s >= board.squares()) throw UsageError(std::string(what) + " leaves the board");
    if (seen & bit(s)) {
      throw UsageError(std::string(what) + " visits " + square_name(board, s) + " twice");
    }
    if (i > 0 && !board.adjacent(path[i - 1], s)) {
      throw UsageError(std::string(what) + ": " + square_name(board, path[i - 1]) + " to " +
                       square_name(board, s) + " is not a knight move");
    }
    seen |= bit(s);
  }
}

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return 1;
}

int choose_split_depth(const JobSpec& job, int threads) {
  const auto roots = job.roots();
  std::size_t root_depth = 0;
  for (const auto& r : roots) root_depth = std::max(root_depth, r.size() - 1);
  // Shards of one run must agree on the depth even when their nodes differ in cores, so a
  // sharded run assumes 64 threads per shard instead of asking this machine.
  const std::size_t per_shard =
      job.shard.count > 1 ? 64 : static_cast<std::size_t>(std::max(threads, 1));
  // Mirror-image prefixes are derived, not searched, so ask for |group| times as many.
  const std::size_t target =
      64 * per_shard * static_cast<std::size_t>(job.shard.count) * search_group(job).size();
  // Deep enough for the target, but never so deep that prefixes are whole tours: a small
  // board simply gets every prefix it has at half its length.
  const int max_depth = std::max(static_cast<int>(root_depth),
                                 std::min(job.board.squares() - 1, job.board.squares() / 2));
  const auto counts = prefix_counts(job.board, roots, job.mode, max_depth, target);
  return static_cast<int>(root_depth + counts.size() - 1);
}

}  // namespace knightstour

namespace knightstour {

void resolve(JobSpec& job) {
  if (job.shard.count < 1) throw UsageError("shard count must be at least 1");
  if (job.shard.index < 0 || job.shard.index >= job.shard.count) {
    throw UsageError("shard index " + std::to_string(job.shard.index) +
                     " must be less than the shard count " + std::to_string(job.shard.count));
  }
  if (!job.all_starts) validate_path(job.board, job.prefix, "prefix");
  if (job.threads <= 0) job.threads = available_cpus();
  if (job.split_depth < 0) {
    job.split_depth = choose_split_depth(job, job.threads);
  } else {
    const int root_depth = job.all_starts ? 0 : static_cast<int>(job.prefix.size()) - 1;
    if (job.split_depth > job.board.squares() - 1) {
      throw UsageError("split depth " + std::to_string(job.split_depth) + " is out of range 0-" +
                       std::to_string(job.board.squares() - 1) + " for the " + job.board.name() +
                       " board");
    }
    if (job.split_depth < root_depth) {
      throw UsageError("split depth " + std::to_string(job.split_depth) +
                       " is shorter than the prefix (" + std::to_string(root_depth) + " moves)");
    }
  }
}

std::vector<Symmetry> search_group(const JobSpec& job) {
  if (!job.symmetry || job.mode.algorithm == Algorithm::naive) {
    auto all = board_symmetries(job.board);
    all.resize(1);
    return all;
  }
  if (job.all_starts) return board_symmetries(job.board);
  return path_stabilizer(job.board, job.prefix);
}

}  // namespace knightstour
