#include "knightstour/exec/work_order.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

#include "knightstour/search/tree_estimate.hpp"

namespace knightstour {

std::vector<double> order_largest_first(std::vector<WorkItem>& items, const Plan& plan,
                                        StopControl& stop) {
  if (items.empty()) return {};
  // About 2^14 walks in all: a millisecond or two, whatever the number of items. A job that
  // looks long (over 10^10 nodes, minutes) gets 2^22 walks, about a second, because its
  // progress reports and ETA rest on these sizes and few walks underestimate heavy tails.
  std::vector<double> size(items.size());
  // Runs in the caller's task arena (see for_each_work_item's `prepare`).
  auto sample = [&](std::uint64_t total_walks) {
    const std::uint64_t walks = std::max<std::uint64_t>(total_walks / items.size(), 2);
    tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
      if (stop.account(0, 0)) return;  // a few milliseconds of walks per item at most
      std::mt19937_64 rng(items[i].searched * 0x9E3779B97F4A7C15ull + 1);
      size[i] =
          estimate_tree(plan.board(), plan.prefixes()[items[i].searched], plan.mode(), walks, rng)
              .nodes;
    });
    double total = 0;
    for (double s : size) total += s;
    return total;
  };
  if (sample(std::uint64_t{1} << 14) > 1e10 && !stop.stopped()) sample(std::uint64_t{1} << 22);
  if (stop.stopped()) return std::vector<double>(items.size(), 0.0);
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return size[a] > size[b]; });
  std::vector<WorkItem> sorted;
  std::vector<double> sorted_size;
  sorted.reserve(items.size());
  for (auto i : order) {
    sorted.push_back(std::move(items[i]));
    sorted_size.push_back(size[i]);
  }
  items = std::move(sorted);
  return sorted_size;
}

void WorkMeter::set_sizes(std::vector<double> sizes) {
  sizes_ = std::move(sizes);
  double total = 0;
  for (double s : sizes_) total += s;
  total_.store(total);
}

void WorkMeter::finished(std::size_t item) {
  const double total = total_.load();
  if (item >= sizes_.size() || total <= 0) return;
  done_.fetch_add(static_cast<std::uint64_t>(sizes_[item] / total * 0x1p40));
}

double WorkMeter::fraction() const {
  if (total_.load() <= 0) return 0;
  return std::min(1.0, static_cast<double>(done_.load()) / 0x1p40);
}

}  // namespace knightstour

namespace knightstour {

double WorkMeter::eta(double nodes_searched, double elapsed) const {
  const double total = total_.load();
  if (total <= 0 || nodes_searched <= 0 || elapsed <= 0) return -1;
  // Searched nodes are exact and the sampled total is good to ~10%, so this beats the share
  // of finished prefixes; near the end the remaining estimate is floored by the unfinished
  // share so it never says 0 while work remains.
  const double left = std::max(total - nodes_searched, total * (1 - fraction()) * 0.05);
  return left / (nodes_searched / elapsed);
}

}  // namespace knightstour
