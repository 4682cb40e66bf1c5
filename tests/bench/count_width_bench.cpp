// Counts past 64 bits, the two ways the field keeps them (issue 76): wide counts (K 64-bit
// limbs with a carry chain; what the frontier method keeps, widening as a count outgrows its
// limbs) against residues modulo word-sized primes, combined by the Chinese remainder theorem
// at the end (R primes below 2^62; one spare residue checks the result). The step's hot loop
// is an addition into a class's count in a table too large for the caches, so this times
// exactly that: a stream of successors, each added to the count of a random class of a
// table of 2^21 classes (a key word and the count's words a class, as an aggregation table
// holds them). Bytes a class: 8 + 8 K wide, 8 + 8 R as residues.
// Run: build/bench/tests/bench/count_width_bench (configure with -DKNIGHTSTOUR_BUILD_BENCHMARKS=ON)
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "knightstour/frontier/wide_count.hpp"

namespace {

using namespace knightstour;

// The largest primes below 2^62 (2^62 - 57, - 87, ...: all prime).
constexpr std::array<std::uint64_t, 9> kPrimes = {
    (1ull << 62) - 57,  (1ull << 62) - 87,  (1ull << 62) - 117,
    (1ull << 62) - 143, (1ull << 62) - 153, (1ull << 62) - 167,
    (1ull << 62) - 171, (1ull << 62) - 195, (1ull << 62) - 203};

template <int K>
struct WideSlot {
  std::uint64_t key;
  WideCount<K> count;
  // The engine's add: it reports overflow (then the step is redone wider).
  bool add(const WideCount<K>& c) { return count.add(c); }
};

#if defined(__x86_64__)
// The same addition as one chain of add-with-carry instructions.
template <int K>
struct AdcSlot {
  std::uint64_t key;
  std::array<unsigned long long, K> limb;
  bool add(const std::array<unsigned long long, K>& c) {
    unsigned char carry = 0;
    for (int i = 0; i < K; ++i) {
      carry = _addcarry_u64(carry, limb[static_cast<std::size_t>(i)],
                            c[static_cast<std::size_t>(i)], &limb[static_cast<std::size_t>(i)]);
    }
    return carry != 0;
  }
};

#endif

template <int R>
struct ResidueSlot {
  std::uint64_t key;
  std::array<std::uint64_t, R> residue;
  // Each residue below its prime, so a + b < 2^63 and one compare reduces it.
  bool add(const std::array<std::uint64_t, R>& c) {
    for (int i = 0; i < R; ++i) {
      std::uint64_t s = residue[static_cast<std::size_t>(i)] + c[static_cast<std::size_t>(i)];
      if (s >= kPrimes[static_cast<std::size_t>(i)]) s -= kPrimes[static_cast<std::size_t>(i)];
      residue[static_cast<std::size_t>(i)] = s;
    }
    return false;
  }
};

constexpr std::size_t kClasses = std::size_t{1} << 21;
constexpr std::size_t kSuccessors = std::size_t{1} << 22;

// Slots to add to, in a random order fixed by the seed (the same for every kind of count).
const std::vector<std::uint32_t>& targets() {
  static const std::vector<std::uint32_t> t = [] {
    std::mt19937_64 rng(76);
    std::vector<std::uint32_t> v(kSuccessors);
    for (auto& x : v) x = static_cast<std::uint32_t>(rng() & (kClasses - 1));
    return v;
  }();
  return t;
}

template <typename Slot, typename Count>
void add_successors(benchmark::State& state, const Count& one) {
  std::vector<Slot> table(kClasses);
  for (std::size_t i = 0; i < kClasses; ++i) table[i].key = i;
  const auto& to = targets();
  for (auto _ : state) {
    bool overflow = false;
    for (std::size_t i = 0; i < kSuccessors; ++i) {
      __builtin_prefetch(&table[to[(i + 8) & (kSuccessors - 1)]]);  // as the step does
      overflow |= table[to[i]].add(one);
    }
    benchmark::DoNotOptimize(overflow);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSuccessors));
  state.counters["bytes_a_class"] = sizeof(Slot);
}

template <int K>
void BM_Wide(benchmark::State& state) {
  WideCount<K> one;
  one.limb[0] = 3;
  add_successors<WideSlot<K>>(state, one);
}

#if defined(__x86_64__)
template <int K>
void BM_WideAdc(benchmark::State& state) {
  std::array<unsigned long long, K> one{};
  one[0] = 3;
  add_successors<AdcSlot<K>>(state, one);
}

#endif

template <int R>
void BM_Residues(benchmark::State& state) {
  std::array<std::uint64_t, R> one{};
  one.fill(3);
  add_successors<ResidueSlot<R>>(state, one);
}

// 64, 128, 256 and 512 bits: wide counts of K limbs against K residues and K + 1 (one spare,
// the check the field asks of a new term). 62-bit primes hold a little less than 64 bits a
// residue, so K residues cover slightly less than K limbs.
BENCHMARK(BM_Wide<1>);
BENCHMARK(BM_Residues<1>);
BENCHMARK(BM_Residues<2>);
BENCHMARK(BM_Wide<2>);
BENCHMARK(BM_Residues<3>);
BENCHMARK(BM_Wide<4>);
#if defined(__x86_64__)
BENCHMARK(BM_WideAdc<4>);
#endif
BENCHMARK(BM_Residues<4>);
BENCHMARK(BM_Residues<5>);
BENCHMARK(BM_Wide<8>);
#if defined(__x86_64__)
BENCHMARK(BM_WideAdc<8>);
#endif
BENCHMARK(BM_Residues<8>);
BENCHMARK(BM_Residues<9>);

}  // namespace

BENCHMARK_MAIN();
