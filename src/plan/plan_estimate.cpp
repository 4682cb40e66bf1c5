#include "knightstour/plan/plan_estimate.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <random>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/base/threads.hpp"

namespace knightstour {

namespace {

// Two estimates of one subtree from separate walks, as one estimate from all of them (the
// sums behind each mean and variance are rebuilt, added, and divided again).
TreeEstimate pool(const TreeEstimate& a, const TreeEstimate& b) {
  if (a.walks == 0) return b;
  if (b.walks == 0) return a;
  const auto sums = [](double mean, double var, double n) {
    return std::pair{n * mean, n * (var * (n - 1) + mean * mean)};  // sum, sum of squares
  };
  const auto na = static_cast<double>(a.walks), nb = static_cast<double>(b.walks), n = na + nb;
  const auto [an, an2] = sums(a.nodes, a.nodes_var, na);
  const auto [bn, bn2] = sums(b.nodes, b.nodes_var, nb);
  const auto [at, at2] = sums(a.tours, a.tours_var, na);
  const auto [bt, bt2] = sums(b.tours, b.tours_var, nb);
  TreeEstimate e;
  e.walks = a.walks + b.walks;
  e.nodes = (an + bn) / n;
  e.tours = (at + bt) / n;
  e.nodes_var = std::max(0.0, (an2 + bn2) / n - e.nodes * e.nodes) / (n - 1);
  e.tours_var = std::max(0.0, (at2 + bt2) / n - e.tours * e.tours) / (n - 1);
  return e;
}

// Walks of one prefix in one round (a round over all prefixes takes well under a second).
constexpr std::uint64_t kWalksPerChunk = 1 << 12;

}  // namespace

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
  // In rounds over all prefixes, so that a stop leaves every prefix with walks; each prefix
  // keeps its own generator, so the walks are those of one uninterrupted pass.
  std::vector<std::mt19937_64> rngs;
  rngs.reserve(items.size());
  for (const auto& item : items) rngs.emplace_back(seed * 0x9E3779B97F4A7C15ull + item.searched);
  for (std::uint64_t done = 0; done < per_item && !stop_signal_received();) {
    const auto chunk = std::min(kWalksPerChunk, per_item - done);
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
        if (stop_signal_received()) return;
        estimates[i] =
            pool(estimates[i], estimate_tree(plan.board(), plan.prefixes()[items[i].searched],
                                             plan.mode(), chunk, rngs[i]));
      });
    });
    done += chunk;
  }
  if (stop_signal_received()) {
    out.interrupted = true;
    std::uint64_t walked = 0;
    bool every_prefix = true;
    for (const auto& e : estimates) {
      walked += e.walks;
      every_prefix = every_prefix && e.walks > 0;
    }
    if (!every_prefix) {
      throw Interrupted("interrupted by a signal after " + std::to_string(walked) +
                        " walks, before every prefix had one: no estimate");
    }
  }
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
