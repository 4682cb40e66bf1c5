// The transposition-table lever, measured and not kept: the number of completions depends
// only on (head, unvisited set), so a table keyed on that can skip repeated subtrees.
// This compares the plain pruned search with a table on a 7x7 subtree (182,552 tours).
// Run: build/release/tests/bench/memo_bench
#include <benchmark/benchmark.h>

#include <vector>

#include "knightstour/board/square.hpp"
#include "knightstour/search/search_state.hpp"

namespace {

using namespace knightstour;

struct Entry {
  Bitboard free = 0;
  std::uint32_t head = 0;  // head + 1; 0 = empty
  std::uint64_t tours = 0;
};

struct Search {
  const Bitboard* nb;
  std::vector<Entry> table;
  std::uint64_t mask = 0;
  int lo = 99, hi = 0;  // memoize states with lo <= remaining <= hi
  std::uint64_t nodes = 0;

  std::uint64_t count(const SearchState& s) {
    ++nodes;
    if (s.remaining == 1) return 1;
    Entry* e = nullptr;
    if (s.remaining >= lo && s.remaining <= hi) {
      std::uint64_t h = s.free * 0x9E3779B97F4A7C15ull ^
                        static_cast<std::uint64_t>(s.head + 1) * 0xC2B2AE3D27D4EB4Full;
      h ^= h >> 29;
      e = &table[h & mask];
      if (e->free == s.free && e->head == static_cast<std::uint32_t>(s.head) + 1) return e->tours;
    }
    const MoveSet m = legal_moves(nb, s);
    std::uint64_t t = 0;
    if (s.remaining == 2) {
      t = static_cast<std::uint64_t>(popcount(m.moves));
      nodes += t;
    } else {
      for_each_square(m.moves, [&](int n) {
        SearchState c;
        play(nb, s, n, m.critical, c);
        t += count(c);
      });
    }
    if (e) *e = {s.free, static_cast<std::uint32_t>(s.head) + 1, t};
    return t;
  }
};

void run(benchmark::State& state, int lo, int hi) {
  const Board b(7, 7);
  std::vector<std::uint8_t> prefix;
  for (int s : parse_square_list(b, "a1,c2,e1,g2,f4,d3,c5,b3,d2", "prefix"))
    prefix.push_back(static_cast<std::uint8_t>(s));
  const auto root = *make_state(b, prefix, false);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    state.PauseTiming();  // a real run allocates the table once for many prefixes
    Search search{b.neighbour_table(), {}, 0, lo, hi};
    if (hi > 0) {
      search.table.assign(std::size_t{1} << 22, Entry{});  // 96 MB
      search.mask = (std::uint64_t{1} << 22) - 1;
    }
    state.ResumeTiming();
    if (search.count(root) != 182'552) state.SkipWithError("wrong count");
    nodes = search.nodes;
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_Plain(benchmark::State& s) { run(s, 99, 0); }
void BM_MemoRemaining12to30(benchmark::State& s) { run(s, 12, 30); }
void BM_MemoRemaining16to30(benchmark::State& s) { run(s, 16, 30); }
void BM_MemoRemaining20to34(benchmark::State& s) { run(s, 20, 34); }

BENCHMARK(BM_Plain)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoRemaining12to30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoRemaining16to30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoRemaining20to34)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
