// How many classes of one generation share each type pattern (the key's 2-bit slot types,
// without the mates), and how evenly parts chosen by the pattern's hash would fill:
//   types_probe ROWS COLS c|o STEP      (the generation that step STEP expands)
// Built against the library from the repository root:
//   g++ -std=c++20 -O2 -Iinclude results/frontier/pattern-cache-2026-11-26/types_probe.cpp \
//     build/release/libknightstour_core.a -ltbb -lspdlog -lfmt -lzstd -o /tmp/types_probe
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "knightstour/frontier/frontier_class.hpp"
#include "knightstour/frontier/frontier_counter.hpp"
using namespace knightstour;
int main(int argc, char** argv) {
  int rows = std::atoi(argv[1]), cols = std::atoi(argv[2]);
  bool closed = argv[3][0] == 'c';
  int step = std::atoi(argv[4]);
  const Sweep sweep({rows, cols});
  StopControl stop(Caps{});
  FrontierOptions o;
  o.threads = 2;
  o.until_step = step;
  auto r = run_frontier(sweep, FrontierTarget{closed, std::nullopt}, o, stop);
  const auto& g = std::get<Generation<1>>(r.paused->classes);
  const int slots = class_slots(sweep.width());
  const std::uint64_t tmask = (std::uint64_t{1} << (2 * slots)) - 1;
  std::unordered_map<std::uint64_t, std::uint64_t> types;
  std::uint64_t n = 0;
  for (const auto& part : g.parts)
    for (auto k : part.keys) {
      ++types[k & tmask];
      ++n;
    }
  // how concentrated: classes covered by the top patterns
  std::uint64_t biggest = 0;
  for (auto& [k, c] : types) biggest = std::max(biggest, c);
  // classes per part if parts were chosen by pattern: 4096 parts
  std::vector<std::uint64_t> parts(4096, 0);
  std::vector<std::uint64_t> pats(4096, 0);
  for (auto& [k, c] : types) {
    std::uint64_t h = (k * 0x9E3779B97F4A7C15ull) >> 52;
    parts[h] += c;
    pats[h] += 1;
  }
  std::uint64_t mx = 0, mxp = 0;
  for (int i = 0; i < 4096; ++i) {
    mx = std::max(mx, parts[i]);
    mxp = std::max(mxp, pats[i]);
  }
  std::printf(
      "largest pattern %llu classes (%.3f%%); by pattern into 4096 parts: mean %.0f classes, "
      "largest %llu; patterns a part: mean %.0f, largest %llu\n",
      (unsigned long long)biggest, 100.0 * biggest / n, double(n) / 4096, (unsigned long long)mx,
      double(types.size()) / 4096, (unsigned long long)mxp);
  std::printf(
      "%dx%d %s step %d: %llu classes, %zu distinct type patterns (%.1f classes a pattern)\n", rows,
      cols, closed ? "closed" : "open", step, (unsigned long long)n, types.size(),
      double(n) / types.size());
}
