// Kernel micro-benchmarks: one thread, no engine, nodes/s as the headline counter.
// Run: build/release/tests/bench/kernel_bench [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include "knightstour/board/square.hpp"
#include "knightstour/search/kernel.hpp"

namespace {

using namespace knightstour;

struct Count {
  static constexpr bool kNeedsPath = false;
  std::uint64_t total = 0;
  void tour(int, const std::uint8_t*) {}
  void tours(int, std::uint64_t n) { total += n; }
};

struct Paths {
  static constexpr bool kNeedsPath = true;
  std::uint64_t total = 0;
  std::uint64_t checksum = 0;
  void tour(int, const std::uint8_t* path) {
    ++total;
    checksum += path[1];
  }
  void tours(int, std::uint64_t) {}
};

struct NeverStop {
  bool operator()(std::uint64_t) { return false; }
};

template <class Visitor, template <class, class> class Kernel>
void run(benchmark::State& state, const char* board_name, const char* prefix_text, bool closed,
         std::uint64_t expected) {
  const Board board = parse_board(board_name);
  std::vector<std::uint8_t> prefix;
  for (int s : parse_square_list(board, prefix_text, "prefix"))
    prefix.push_back(static_cast<std::uint8_t>(s));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    Visitor visitor;
    NeverStop poll;
    Kernel<Visitor, NeverStop> kernel(board, {closed, 1 << 20}, visitor, poll);
    if constexpr (std::is_same_v<Kernel<Visitor, NeverStop>, PrunedKernel<Visitor, NeverStop>>) {
      kernel.run(*make_state(board, prefix, closed), prefix.data(),
                 static_cast<int>(prefix.size()));
    } else {
      Bitboard free = board.all();
      for (auto s : prefix) free &= ~bit(s);
      kernel.run(free, prefix.data(), static_cast<int>(prefix.size()));
    }
    if (visitor.total != expected) state.SkipWithError("wrong tour count");
    nodes += kernel.nodes();
    benchmark::DoNotOptimize(visitor.total);
  }
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
  state.counters["tours/s"] =
      benchmark::Counter(static_cast<double>(expected) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

void BM_Pruned6x6FromA1(benchmark::State& s) {
  run<Count, PrunedKernel>(s, "6x6", "a1", false, 524'486);
}
void BM_Pruned6x6ClosedFromA1(benchmark::State& s) {
  run<Count, PrunedKernel>(s, "6x6", "a1", true, 19'724);
}
void BM_Pruned6x6PathsFromA1(benchmark::State& s) {
  run<Paths, PrunedKernel>(s, "6x6", "a1", false, 524'486);
}
void BM_Pruned5x5FromA1(benchmark::State& s) {
  run<Count, PrunedKernel>(s, "5x5", "a1", false, 304);
}
void BM_Naive5x5FromA1(benchmark::State& s) { run<Count, NaiveKernel>(s, "5x5", "a1", false, 304); }
void BM_Pruned7x7Prefix(benchmark::State& s) {
  run<Count, PrunedKernel>(s, "7x7", "a1,c2,e1,g2,f4,d3,c5,b3,d2", false, 182'552);
}

BENCHMARK(BM_Pruned5x5FromA1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Naive5x5FromA1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pruned6x6FromA1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pruned6x6ClosedFromA1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pruned6x6PathsFromA1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pruned7x7Prefix)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
