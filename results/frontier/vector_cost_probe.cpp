// What one unpinned open sweep costs when every class carries wider counts: a measurement for
// the all-starts-in-one-sweep design (all-starts-one-sweep.md), not part of the tool.
//   vector_cost_probe ROWS COLS LIMBS THREADS [tally]
// runs the unpinned open sweep of the board (Hamiltonian paths, no end pinned; the count is the
// undirected paths, half the directed open tours over all starts) with counts of LIMBS 64-bit
// limbs (1, 2, 4 or 8) from the first step, by resuming from a one-class generation of that
// width. LIMBS = 8 moves as many bytes a class as a vector of 8 64-bit counts would. With
// `tally`, it also says how the classes of all generations split by T's edges (0, 1, 2).
// Built against the library (release preset build):
//   g++ -std=c++20 -O3 -march=x86-64-v2 -Iinclude results/frontier/vector_cost_probe.cpp
//     build/release/libknightstour_core.a -ltbb -lspdlog -lfmt -lzstd -o /tmp/vector_cost_probe
// (one command line)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "knightstour/base/cpus.hpp"
#include "knightstour/frontier/frontier_counter.hpp"
#include "knightstour/frontier/generation_store.hpp"
using namespace knightstour;

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: vector_cost_probe ROWS COLS LIMBS THREADS [tally]\n");
    return 2;
  }
  const Sweep sweep({std::atoi(argv[1]), std::atoi(argv[2])});
  const int limbs = std::atoi(argv[3]);
  const FrontierTarget target{false, std::nullopt};
  FrontierOptions o;
  o.threads = std::atoi(argv[4]);
  StopControl stop(Caps{});
  // The sweep's first generation (paused before step 0), widened to LIMBS limbs.
  FrontierOptions before = o;
  before.until_step = 0;
  FrontierState start = *run_frontier(sweep, target, before, stop).paused;
  MemoryBudget budget(~std::uint64_t{0});
  while (std::visit([](const auto& g) { return g.kLimbs; }, start.classes) < limbs) {
    std::visit(
        [&](auto& g) {
          if constexpr (std::decay_t<decltype(g)>::kLimbs < 8) {
            start.classes = widened(std::move(g), budget);
          }
        },
        start.classes);
  }
  // Classes of every generation by how many edges T has (key bits 0-1: 0 free, 2 or 3 an end,
  // 1 done): a class whose T is free has no ends yet, so a count vector would be all zero.
  std::uint64_t by_t[3] = {};
  const bool tally = argc == 6;  // (costs time: not for timings)
  if (tally)
    o.after_step = [&](const FrontierState& s) {
      std::visit(
          [&](const auto& g) {
            for (const auto& part : g.parts) {
              std::vector<std::uint64_t> keys(part.size());
              part.read_keys(0, part.size(), keys.data());
              for (const std::uint64_t key : keys) {
                const std::uint64_t t = key & 3u;
                ++by_t[t == 0 ? 0 : t == 1 ? 2 : 1];
              }
            }
          },
          s.classes);
    };
  const double cpu0 = process_cpu_seconds();
  const FrontierResult r = run_frontier(sweep, target, o, stop, std::move(start));
  const double cpu = process_cpu_seconds() - cpu0;
  std::printf(
      "%s limbs %d threads %d: paths %s, expanded %llu, peak classes %llu, peak %.2f GiB, "
      "wall %.2f s, CPU %.2f s, %.0f ns CPU a class\n",
      sweep.shape().name().c_str(), r.limbs, o.threads, r.count.with_commas().c_str(),
      static_cast<unsigned long long>(r.expanded), static_cast<unsigned long long>(r.peak_classes),
      static_cast<double>(r.peak_bytes) / (1u << 30), r.seconds, cpu,
      cpu * 1e9 / static_cast<double>(r.expanded));
  const double all = static_cast<double>(by_t[0] + by_t[1] + by_t[2]);
  if (tally)
    std::printf("  classes of all generations by T's edges: 0: %.1f%%, 1: %.1f%%, 2: %.1f%%\n",
                100.0 * static_cast<double>(by_t[0]) / all,
                100.0 * static_cast<double>(by_t[1]) / all,
                100.0 * static_cast<double>(by_t[2]) / all);
  return r.complete ? 0 : 1;
}
