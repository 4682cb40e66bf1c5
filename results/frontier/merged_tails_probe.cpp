// What merging the pinned tails of one column would save: a measurement for the all-starts
// job, not part of the tool.
//   merged_tails_probe ROWS COLS THREADS
// For each column of the sweep that holds pins (the last member of each class of start
// squares under the rectangle's four symmetries, as count_all_starts picks them), runs the
// shared prefix to each pin and that pin's tail to the end of the column, then
//  (a) each tail on to the end, separately (what the all-starts job does), and
//  (b) the union of the tails' generations at the column's end, one sweep (the keys no longer
//      say where the pinned end is), with scalar counts and with counts of 4 limbs (the bytes
//      of a vector of up to 4 counts, one per pin of the column).
// Prints classes expanded and seconds of each, and checks that (b)'s count is the sum of (a)'s.
// Built against the library (release preset build):
//   g++ -std=c++20 -O3 -march=x86-64-v2 -Iinclude results/frontier/merged_tails_probe.cpp
//     build/release/libknightstour_core.a -ltbb -lspdlog -lfmt -lzstd -o /tmp/merged_tails_probe
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <vector>

#include "knightstour/base/cpus.hpp"
#include "knightstour/frontier/frontier_counter.hpp"
#include "knightstour/frontier/generation_store.hpp"
using namespace knightstour;

namespace {

FrontierState merged(const std::vector<FrontierState>& states) {
  // The input parts of a step carry no meaning (the step routes successors by hash), so the
  // union is summed by key and dealt into 64 parts.
  std::unordered_map<std::uint64_t, std::uint64_t> sum;
  for (const auto& st : states)
    for (const auto& part : std::get<Generation<1>>(st.classes).parts)
      for (std::size_t i = 0; i < part.keys.size(); ++i)
        sum[part.keys[i]] += part.counts[i].limb[0];
  Generation<1> out;
  out.parts.resize(64);
  std::size_t at = 0;
  for (const auto& [key, n] : sum) {
    auto& part = out.parts[at++ % out.parts.size()];
    part.keys.push_back(key);
    WideCount<1> c{};
    c.limb[0] = n;
    part.counts.push_back(c);
  }
  return {states.front().next_step, std::move(out)};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: merged_tails_probe ROWS COLS THREADS\n");
    return 2;
  }
  const Sweep s({std::atoi(argv[1]), std::atoi(argv[2])});
  const int W = s.width(), L = s.length(), n = s.size();
  FrontierOptions o;
  o.threads = std::atoi(argv[3]);
  StopControl stop(Caps{});
  std::map<int, std::vector<int>> pins_by_column;
  for (int v = L / 2; v < L; ++v)
    for (int u = W / 2; u < W; ++u) pins_by_column[v].push_back(v * W + u);

  const FrontierTarget prefix_target{false, n};
  double sep_s = 0, m1_s = 0, m4_s = 0;
  std::uint64_t sep_x = 0, m_x = 0;
  for (const auto& [v, pins] : pins_by_column) {
    const int column_end = (v + 1) * W;
    std::vector<FrontierState> at_end;
    std::uint64_t sep_x_col = 0, sum_tails = 0, sum_classes = 0;
    double sep_s_col = 0;
    for (const int pin : pins) {
      FrontierOptions a = o;
      a.until_step = pin;
      FrontierState st = *run_frontier(s, prefix_target, a, stop).paused;
      FrontierOptions b = o;
      b.until_step = column_end;
      FrontierResult tail = run_frontier(s, {false, pin}, b, stop, std::move(st));
      at_end.push_back(*tail.paused);
      sum_classes += std::get<Generation<1>>(at_end.back().classes).size();
      const FrontierResult rest = run_frontier(s, {false, pin}, o, stop, at_end.back());
      sep_x_col += rest.expanded;
      sep_s_col += rest.seconds;
      sum_tails += rest.count.low();
    }
    FrontierState m = merged(at_end);
    const std::uint64_t union_classes = std::get<Generation<1>>(m.classes).size();
    FrontierOptions nofold = o;
    nofold.fold_mirror = false;
    const FrontierResult r1 = run_frontier(s, {false, pins.front()}, nofold, stop, m);
    const FrontierResult rf = run_frontier(s, {false, std::nullopt}, o, stop, m);
    MemoryBudget budget(~std::uint64_t{0});
    FrontierState m4{
        m.next_step,
        widened(widened(std::move(std::get<Generation<1>>(m.classes)), budget), budget)};
    const FrontierResult r4 = run_frontier(s, {false, pins.front()}, nofold, stop, std::move(m4));
    std::printf(
        "column %d (%zu pins, from step %d): at its end %llu classes in the tails, %llu in their "
        "union\n  separate: expanded %llu, %.3f s; merged: expanded %llu, %.3f s (4 limbs %.3f s); "
        "merged and folded: expanded %llu, %.3f s; counts %s\n",
        v, pins.size(), column_end, (unsigned long long)sum_classes,
        (unsigned long long)union_classes, (unsigned long long)sep_x_col, sep_s_col,
        (unsigned long long)r1.expanded, r1.seconds, r4.seconds, (unsigned long long)rf.expanded,
        rf.seconds,
        r1.count.low() == sum_tails && rf.count.low() == sum_tails ? "agree" : "DIFFER");
    sep_s += sep_s_col;
    m1_s += r1.seconds;
    m4_s += r4.seconds;
    sep_x += sep_x_col;
    m_x += r1.expanded;
  }
  std::printf(
      "all columns: separate %llu classes %.3f s; merged %llu classes %.3f s, 4 limbs %.3f s\n",
      (unsigned long long)sep_x, sep_s, (unsigned long long)m_x, m1_s, m4_s);
}
