#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "knightstour/frontier/frontier_counter.hpp"
using namespace knightstour;
// Class counts after every step of one 8x8 sweep: `o` the unpinned open sweep (the all-starts
// prefix differs only in T's rule before the pins), `c` the closed one; second argument: the
// time limit in seconds; then, optionally, threads, budget in GiB and spill directory (2, 16
// and /tmp/nine/spill2 when left out). Built against the library:
//   g++ -std=c++20 -O2 -Iinclude results/frontier/steps_probe.cpp \
//     build/release/libknightstour_core.a -ltbb -lspdlog -lfmt -lzstd -o steps_probe
//   ./steps_probe o 400 > 8x8-open-unpinned-steps.txt; ./steps_probe c 60 > 8x8-closed-steps.txt
//   ./steps_probe o 420 16 100 /tmp/spill   (the 16-core device, 2026-11-26)
int main(int argc, char** argv) {
  const int rows = 8, cols = 8;
  const bool closed = argc > 1 && argv[1][0] == 'c';
  const Sweep sweep({rows, cols});
  Caps caps;
  caps.time_limit = argc > 2 ? std::atof(argv[2]) : 400;
  StopControl stop(caps);
  FrontierOptions o;
  o.threads = argc > 3 ? std::atoi(argv[3]) : 2;
  o.memory_limit = (argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 16ull) << 30;
  o.spill_dir = argc > 5 ? argv[5] : "/tmp/nine/spill2";
  std::filesystem::create_directories(o.spill_dir);
  auto t0 = std::chrono::steady_clock::now();
  o.after_step = [&](const FrontierState& s) {
    std::uint64_t n = std::visit([](const auto& g) { return g.size(); }, s.classes);
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("after step %d: %llu classes (%.1f s)\n", s.next_step - 1, (unsigned long long)n,
                t);
    std::fflush(stdout);
  };
  auto r = run_frontier(sweep, FrontierTarget{closed, std::nullopt}, o, stop);
  std::printf("expanded %llu complete %d\n", (unsigned long long)r.expanded, (int)r.complete);
}
