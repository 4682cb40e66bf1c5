#pragma once

#include <cstddef>
#include <vector>

#include "knightstour/board/symmetry.hpp"
#include "knightstour/plan/prefix_plan.hpp"
#include "knightstour/plan/request.hpp"
#include "knightstour/plan/work_list.hpp"

namespace knightstour {

// A request resolved once, then handed down read-only to everything that works on it: the
// driver, estimate, `prefixes`, verify. It holds the numbered prefixes, the symmetry group
// that relates them, and this shard's share as work items (a searched prefix with the
// mirror images derived from it).
class Plan {
 public:
  const Request& request() const { return request_; }  // split_depth always set
  const Board& board() const { return request_.board; }
  SearchMode mode() const { return request_.mode; }
  int split_depth() const { return *request_.split_depth; }
  const Shard& shard() const { return request_.shard; }

  const PrefixPlan& prefixes() const { return prefixes_; }
  // The symmetries mirror-image prefixes are derived through (identity first).
  const std::vector<Symmetry>& group() const { return group_; }
  // This shard's work: every prefix of the shard is a member of exactly one item.
  const std::vector<WorkItem>& items() const { return items_; }
  std::size_t shard_prefixes() const { return shard_prefixes_; }
  bool in_shard(std::size_t id) const { return in_shard_.empty() || in_shard_[id]; }

 private:
  friend Plan resolve(const Request& request, int threads);
  Plan(Request request, PrefixPlan prefixes, std::vector<Symmetry> group);
  Request request_;
  PrefixPlan prefixes_;
  std::vector<Symmetry> group_;
  std::vector<WorkItem> items_;
  std::size_t shard_prefixes_ = 0;
  std::vector<bool> in_shard_;  // by prefix id; empty when the job is not sharded
};

// Validates the request (prefix, shard, split depth; UsageError naming the problem) and
// builds its plan. `threads` only matters for the default split depth of an unsharded run.
Plan resolve(const Request& request, int threads);

// A sharded run assumes this many threads per shard whatever the machine, so that every
// shard picks the same default split depth.
inline constexpr int kThreadsPerShard = 16;

// The smallest depth giving at least 64 searched prefixes per thread, so work stealing can
// balance uneven subtrees. Depends only on its arguments.
int choose_split_depth(const Request& request, int threads);

// The symmetries a run may derive prefixes through: the whole board group for all starts,
// the symmetries fixing the prefix otherwise, the identity alone when symmetry is off or
// the algorithm is naive (it shows the unreduced search).
std::vector<Symmetry> search_group(const Request& request);

}  // namespace knightstour
