#include "knightstour/plan/plan.hpp"

#include <algorithm>
#include <string>

#include "knightstour/base/errors.hpp"

namespace knightstour {

Plan::Plan(Request request, PrefixPlan prefixes, std::vector<Symmetry> group)
    : request_(std::move(request)), prefixes_(std::move(prefixes)), group_(std::move(group)) {
  const Shard& shard = request_.shard;
  const auto count = static_cast<std::size_t>(shard.count);
  const auto index = static_cast<std::size_t>(shard.index);
  if (count == 1) {
    items_ = build_work_list(prefixes_, group_, [](std::size_t) { return true; });
  } else if (shard.rule == ShardRule::ids) {
    items_ =
        build_work_list(prefixes_, group_, [&](std::size_t id) { return id % count == index; });
  } else {
    // Deal whole orbits: the work list of the whole job, in order of representative, every
    // count-th item kept. Depends only on the job and count, so every shard agrees.
    auto all = build_work_list(prefixes_, group_, [](std::size_t) { return true; });
    for (std::size_t k = index; k < all.size(); k += count) items_.push_back(std::move(all[k]));
  }
  if (count > 1) {
    in_shard_.assign(prefixes_.size(), false);
    for (const auto& item : items_) {
      for (const auto& m : item.members) in_shard_[m.id] = true;
    }
  }
  shard_prefixes_ = prefixes_in(items_);
}

Plan resolve(const Request& request, int threads) {
  const Shard& shard = request.shard;
  if (shard.count < 1) throw UsageError("shard count must be at least 1");
  if (shard.index < 0 || shard.index >= shard.count) {
    throw UsageError("shard index " + std::to_string(shard.index) +
                     " must be less than the shard count " + std::to_string(shard.count));
  }
  if (!request.all_starts) validate_path(request.board, request.prefix, "prefix");
  Request resolved = request;
  if (!resolved.split_depth) {
    resolved.split_depth = choose_split_depth(request, threads);
  } else {
    const int depth = *resolved.split_depth;
    const int squares = request.board.squares();
    if (depth < 0 || depth > squares - 1) {
      throw UsageError("split depth " + std::to_string(depth) + " is out of range 0-" +
                       std::to_string(squares - 1) + " for the " + request.board.name() + " board");
    }
    if (depth < request.root_depth()) {
      throw UsageError("split depth " + std::to_string(depth) + " is shorter than the prefix (" +
                       std::to_string(request.root_depth()) + " moves)");
    }
  }
  PrefixPlan prefixes(resolved.board, resolved.roots(), resolved.mode, *resolved.split_depth);
  auto group = search_group(resolved);
  return Plan(std::move(resolved), std::move(prefixes), std::move(group));
}

int choose_split_depth(const Request& request, int threads) {
  const auto roots = request.roots();
  const int root_depth = request.root_depth();
  const std::size_t per_shard = request.shard.count > 1
                                    ? static_cast<std::size_t>(kThreadsPerShard)
                                    : static_cast<std::size_t>(std::max(threads, 1));
  // Mirror-image prefixes are derived, not searched, so ask for |group| times as many.
  const std::size_t target =
      64 * per_shard * static_cast<std::size_t>(request.shard.count) * search_group(request).size();
  // Deep enough for the target, but never so deep that prefixes are whole tours: a small
  // board simply gets every prefix it has at half its length.
  const int squares = request.board.squares();
  const int max_depth = std::max(root_depth, std::min(squares - 1, squares / 2));
  const auto counts = prefix_counts(request.board, roots, request.mode, max_depth, target);
  return root_depth + static_cast<int>(counts.size()) - 1;
}

std::vector<Symmetry> search_group(const Request& request) {
  if (!request.symmetry || request.mode.algorithm == Algorithm::naive) {
    auto all = board_symmetries(request.board);
    all.resize(1);
    return all;
  }
  if (request.all_starts) return board_symmetries(request.board);
  return path_stabilizer(request.board, request.prefix);
}

}  // namespace knightstour
