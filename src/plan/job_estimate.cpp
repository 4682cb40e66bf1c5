#include "knightstour/plan/job_estimate.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <random>

#include "knightstour/plan/prefix_plan.hpp"
#include "knightstour/plan/work_list.hpp"

namespace knightstour {

JobEstimate estimate_job(const JobSpec& job, std::uint64_t walks, std::uint64_t seed) {
  const PrefixPlan plan(job.board, job.roots(), job.mode, job.split_depth);
  const auto group = search_group(job);
  const auto items =
      build_work_list(plan, group, [&](std::size_t id) { return job.shard.contains(id); });
  JobEstimate out;
  for (std::size_t id = 0; id < plan.size(); ++id) out.prefixes += job.shard.contains(id) ? 1 : 0;
  out.searches = items.size();
  if (items.empty()) return out;
  const std::uint64_t per_item = std::max<std::uint64_t>(walks / items.size(), 2);
  std::vector<TreeEstimate> estimates(items.size());
  tbb::task_arena arena(job.threads);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
      std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + items[i].searched);
      estimates[i] = estimate_tree(job.board, plan[items[i].searched], job.mode, per_item, rng);
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
