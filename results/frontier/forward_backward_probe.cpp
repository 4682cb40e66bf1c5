// The grid of open tours from every square by one unpinned sweep and one backward pass: a
// measurement for the all-starts job, not part of the tool.
//   forward_backward_probe ROWS COLS THREADS
// Forward: the unpinned open sweep (every Hamiltonian path once, as --total-only runs it,
// mirror fold on), keeping every generation in memory. Backward: from the last step to the
// first, each class's completions c(X) = sum of c(Y) over its successors Y (looked up in the
// next generation, kept up to the mirror like the sweep keeps them). A successor Y of X that
// gives T an edge at step k makes square k an end of n(X) c(Y) paths, so the pass adds that
// to square k's pair (k and its mirror image: the fold mixes them, and the board's symmetry
// makes them equal). Prints the grid (directed open tours from each square: the undirected
// paths with an end there) and the seconds of each pass; checks sum n(X) c(X) against the
// forward count at every generation.
// Built against the library (release preset build):
//   g++ -std=c++20 -O3 -march=x86-64-v2 -Iinclude results/frontier/forward_backward_probe.cpp
//     build/release/libknightstour_core.a -ltbb -lspdlog -lfmt -lzstd -o /tmp/fb_probe
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "knightstour/frontier/frontier_counter.hpp"
#include "knightstour/frontier/mirror.hpp"
#include "knightstour/frontier/transition.hpp"
using namespace knightstour;

namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

struct Flat {  // one generation: keys and their forward counts
  std::vector<u64> keys, counts;
};

Flat flatten(const FrontierState& st) {
  Flat f;
  for (const auto& part : std::get<Generation<1>>(st.classes).parts) {
    for (std::size_t i = 0; i < part.keys.size(); ++i) {
      f.keys.push_back(part.keys[i]);
      f.counts.push_back(part.counts[i].limb[0]);
    }
  }
  return f;
}

// Open addressing, linear probing: key -> completions (kNoClass marks an empty slot).
struct Table {
  std::vector<u64> keys, values;
  u64 mask = 0;
  explicit Table(const std::vector<u64>& k, const std::vector<u64>& v) {
    std::size_t cap = 16;
    while (cap < 2 * k.size()) cap *= 2;
    keys.assign(cap, kNoClass);
    values.assign(cap, 0);
    mask = cap - 1;
    for (std::size_t i = 0; i < k.size(); ++i) {
      u64 h = hash(k[i]) & mask;
      while (keys[h] != kNoClass) h = (h + 1) & mask;
      keys[h] = k[i];
      values[h] = v[i];
    }
  }
  static u64 hash(u64 x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  }
  u64 find(u64 k) const {  // 0 when absent (a successor the sweep dropped)
    for (u64 h = hash(k) & mask;; h = (h + 1) & mask) {
      if (keys[h] == k) return values[h];
      if (keys[h] == kNoClass) return 0;
    }
  }
};

int t_degree(u64 key) {  // key bits 0-1: T free 0, an end 2 or 3, done 1
  const u64 t = key & 3u;
  return t == 0 ? 0 : t == 1 ? 2 : 1;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: forward_backward_probe ROWS COLS THREADS\n");
    return 2;
  }
  const Sweep s({std::atoi(argv[1]), std::atoi(argv[2])});
  const int threads = std::atoi(argv[3]);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, threads);
  const FrontierTarget target{false, std::nullopt};
  const int n = s.size();
  FrontierOptions o;
  o.threads = threads;
  StopControl stop(Caps{});

  // Forward, keeping every generation.
  FrontierOptions first = o;
  first.until_step = 0;
  std::vector<Flat> gens;
  FrontierState start = *run_frontier(s, target, first, stop).paused;
  gens.push_back(flatten(start));
  o.after_step = [&](const FrontierState& st) { gens.push_back(flatten(st)); };
  double t0 = now();
  const FrontierResult r = run_frontier(s, target, o, stop, std::move(start));
  const double forward_s = now() - t0;
  std::printf(
      "%s forward: %s paths, %zu generations kept, %llu classes expanded, %.3f s "
      "(with copying them)\n",
      s.shape().name().c_str(), r.count.with_commas().c_str(), gens.size(),
      static_cast<unsigned long long>(r.expanded), forward_s);
  if (static_cast<int>(gens.size()) != n) {
    std::fprintf(stderr, "expected %d generations\n", n);
    return 1;
  }
  const StepRules rules = make_step_rules(s, target, true);
  // The fold mixes square v with its mirror image: ends are summed per pair, under the
  // pair's smaller sweep vertex.
  const int w = s.width();
  auto mirror_of = [w](int v) { return v - v % w + (w - 1 - v % w); };
  auto pair_of = [&](int v) { return std::min(v, mirror_of(v)); };
  t0 = now();
  std::vector<u128> pair_ends(n, 0);  // by sweep vertex of the pair's smaller member
  std::vector<u64> next_values;       // completions of generation k + 1, by index
  u128 total0 = 0;
  double build_s = 0;
  std::uint64_t backward_expanded = 0;
  for (int k = n - 1; k >= 0; --k) {
    const Flat& g = gens[static_cast<std::size_t>(k)];
    const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
    const double b0 = now();
    std::optional<Table> table;
    if (k + 1 < n) table.emplace(gens[static_cast<std::size_t>(k) + 1].keys, next_values);
    build_s += now() - b0;
    std::vector<u64> values(g.keys.size());
    const int pair = pair_of(k);
    tbb::enumerable_thread_specific<u128> ends_here(0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, g.keys.size(), 4096),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        u128& local = ends_here.local();
                        for (std::size_t i = r.begin(); i != r.end(); ++i) {
                          const u64 key = g.keys[i];
                          const int td = t_degree(key);
                          u64 c = 0;
                          u64 c_t = 0;  // of successors that gave T an edge at this step
                          expand<BitKernel::portable>(
                              rules, rule, key,
                              [&](u64 succ) {
                                if (rule.fold_mirror) succ = mirror_canonical(succ, rules.mirror);
                                const u64 v = table->find(succ);
                                c += v;
                                if (t_degree(succ) > td) c_t += v;
                              },
                              [&] {
                                // The last step closes the cycle through T: the last square is an
                                // end exactly when its edge to T is one of the two it takes;
                                // counted from the sum below instead.
                                ++c;
                              });
                          values[i] = c;
                          local += static_cast<u128>(g.counts[i]) * c_t;
                        }
                      });
    backward_expanded += g.keys.size();
    u128 here = 0;
    for (const u128 x : ends_here) here += x;
    pair_ends[static_cast<std::size_t>(pair)] += here;
    if (k == 0) {
      for (std::size_t i = 0; i < g.keys.size(); ++i)
        total0 += static_cast<u128>(g.counts[i]) * values[i];
    }
    next_values = std::move(values);
  }
  const double backward_s = now() - t0;
  // The last square's ends: twice the paths, less every other square's.
  u128 others = 0;
  for (const u128 x : pair_ends) others += x;
  const u128 paths = static_cast<u128>(r.count.low());
  pair_ends[static_cast<std::size_t>(pair_of(n - 1))] += 2 * paths - others;
  std::printf(
      "backward: %llu classes expanded, %.3f s (of which %.3f s building tables); "
      "paths by the backward pass %s the forward count\n",
      static_cast<unsigned long long>(backward_expanded), backward_s, build_s,
      total0 == paths ? "equal" : "DIFFER FROM");
  // The grid, board squares by row from the top.
  std::vector<u64> grid(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    const u128 sum = pair_ends[static_cast<std::size_t>(pair_of(v))];
    grid[static_cast<std::size_t>(s.square(v))] =
        static_cast<u64>(mirror_of(v) == v ? sum : sum / 2);
  }
  const int rows = s.shape().rows, cols = s.shape().cols;
  std::printf("tours_by_start (a1, b1, ...):");
  for (int sq = 0; sq < rows * cols; ++sq)
    std::printf(" %llu", (unsigned long long)grid[static_cast<std::size_t>(sq)]);
  std::printf("\n");
  return 0;
}
