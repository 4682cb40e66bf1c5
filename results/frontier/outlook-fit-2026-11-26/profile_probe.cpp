// Classes after every step of one whole sweep, as `profiles/` holds them:
//   profile_probe ROWS COLS c|o [THREADS]     (c: closed cycles; o: the unpinned open sweep)
// Built against the library from the repository root:
//   g++ -std=c++20 -O2 -Iinclude results/frontier/outlook-fit-2026-11-26/profile_probe.cpp \
//     build/release/libknightstour_core.a -ltbb -lspdlog -lfmt -lzstd -o /tmp/profile_probe
// Classes past 16 GiB spill to /tmp/profile-probe-spill.
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "knightstour/frontier/frontier_counter.hpp"
using namespace knightstour;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: profile_probe ROWS COLS c|o [THREADS]\n");
    return 2;
  }
  const int rows = std::atoi(argv[1]), cols = std::atoi(argv[2]);
  const bool closed = argv[3][0] == 'c';
  const Sweep sweep({rows, cols});
  StopControl stop(Caps{});
  FrontierOptions o;
  o.threads = argc > 4 ? std::atoi(argv[4]) : 2;
  o.memory_limit = 16ull << 30;
  o.spill_dir = "/tmp/profile-probe-spill";
  std::filesystem::create_directories(o.spill_dir);
  const auto r = run_frontier(sweep, FrontierTarget{closed, std::nullopt}, o, stop);
  std::printf("# %dx%d %s width %d steps %d complete %d expanded %llu\n", rows, cols,
              closed ? "closed" : "open", sweep.width(), r.steps, static_cast<int>(r.complete),
              static_cast<unsigned long long>(r.expanded));
  for (const auto c : r.classes) std::printf("%llu\n", static_cast<unsigned long long>(c));
}
