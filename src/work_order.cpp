#include "knightstour/work_order.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

#include "knightstour/tree_estimate.hpp"

namespace knightstour {

void order_largest_first(std::vector<WorkItem>& items, const PrefixPlan& plan, const JobSpec& job) {
  if (items.size() < 2) return;
  // About 2^16 walks in all: a few milliseconds, whatever the number of items.
  const std::uint64_t walks = std::clamp<std::uint64_t>(65536 / items.size(), 2, 32);
  std::vector<double> size(items.size());
  // Runs in the caller's task arena (see for_each_work_item's `prepare`).
  tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
    std::mt19937_64 rng(items[i].searched * 0x9E3779B97F4A7C15ull + 1);
    size[i] = estimate_tree(job.board, plan[items[i].searched], job.mode, walks, rng).nodes;
  });
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return size[a] > size[b]; });
  std::vector<WorkItem> sorted;
  sorted.reserve(items.size());
  for (auto i : order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

}  // namespace knightstour
