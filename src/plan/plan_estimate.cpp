#include "knightstour/plan/plan_estimate.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <random>

#include "knightstour/base/threads.hpp"

namespace knightstour {

PlanEstimate estimate_plan(const Plan& plan, std::uint64_t walks, std::uint64_t seed, int threads) {
  const auto& items = plan.items();
  PlanEstimate out;
  out.prefixes = plan.shard_prefixes();
  out.searches = items.size();
  if (items.empty()) return out;
  const std::uint64_t per_item = std::max<std::uint64_t>(walks / items.size(), 2);
  std::vector<TreeEstimate> estimates(items.size());
  check_threads_can_start(
      threads, tbb::global_control::active_value(tbb::global_control::thread_stack_size));
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
      std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + items[i].searched);
      estimates[i] = estimate_tree(plan.board(), plan.prefixes()[items[i].searched], plan.mode(),
                                   per_item, rng);
    });
  });
  for (std::size_t i = 0; i < items.size(); ++i) {
    out.searched.add(estimates[i]);
    const auto members = static_cast<double>(items[i].members.size());
    out.tours += estimates[i].tours * members;
    out.tours_var += estimates[i].tours_var * members * members;
  }
  out.walks = out.searched.walks;
  return out;
}

}  // namespace knightstour
