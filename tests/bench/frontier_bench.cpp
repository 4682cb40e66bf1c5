// The frontier kernel alone: one thread, the classes of one real generation, no aggregation.
// Run: build/release/tests/bench/frontier_bench [--benchmark_repetitions=5]
// Each benchmark reports the time per class (the generation's classes, each expanded, unpacked or
// round-tripped once an iteration) and, for expand, successors per class.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/step/choice_plans.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/frontier/bit_kernel.hpp"

namespace {

using namespace knightstour;

struct Sample {
  StepRules rules;
  int step = 0;
  std::vector<std::uint64_t> keys;
};

// The classes a sweep holds before `step` (built once per process by the engine itself).
const Sample& sample(int rows, int cols, bool closed, int step) {
  static std::map<std::tuple<int, int, bool, int>, Sample> cache;
  auto [it, added] = cache.try_emplace({rows, cols, closed, step});
  if (!added) return it->second;
  const Sweep sweep({rows, cols});
  const FrontierTarget target{closed, std::nullopt};
  Sample& s = it->second;
  s.rules = make_step_rules(sweep, target);
  s.step = step;
  StopControl stop(Caps{});
  FrontierOptions options;
  options.threads = 1;
  options.until_step = step;
  FrontierResult r = run_frontier(sweep, target, options, stop);
  const auto& g = std::get<Generation<1>>(r.paused->classes);
  g.for_each_class([&](std::uint64_t key, const WideCount<1>&) { s.keys.push_back(key); });
  return s;
}

// Seconds per class (printed with an SI prefix: 138n is 138 ns) and, for a benchmark that
// expands, successors per class (`successors` over all iterations).
void per_class(benchmark::State& state, std::size_t classes, std::uint64_t successors = 0) {
  state.counters["time/class"] =
      benchmark::Counter(static_cast<double>(state.iterations() * classes),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  if (successors > 0) {
    state.counters["successors/class"] =
        static_cast<double>(successors) / static_cast<double>(state.iterations() * classes);
  }
}

// False (and the benchmark skipped) when this CPU cannot run kernel B.
bool runs(benchmark::State& state, BitKernel b) {
  if (b == BitKernel::portable || cpu_has_bmi2()) return true;
  state.SkipWithError("this CPU has no BMI2");
  return false;
}

template <BitKernel B>
void expand_all(benchmark::State& state, int rows, int cols, bool closed, int step) {
  if (!runs(state, B)) return;
  const Sample& s = sample(rows, cols, closed, step);
  const StepRule& rule = s.rules.steps[static_cast<std::size_t>(s.step)];
  std::uint64_t successors = 0;
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const std::uint64_t key : s.keys) {
      expand<B>(
          s.rules, rule, key,
          [&](std::uint64_t next) {
            sum += next;
            ++successors;
          },
          [&] { ++sum; });
    }
    benchmark::DoNotOptimize(sum);
  }
  per_class(state, s.keys.size(), successors);
}

// expand_planned over the generation's classes by part, parts chosen by the hash of the type
// pattern (2^12 of them, as at these steps). Within a part the engine also groups the classes
// by pattern (AggregationTable); this keeps the order the classes were sampled in, which is
// how docs/speed.md (choice-plans.md) measured it.
template <BitKernel B>
void expand_planned_all(benchmark::State& state, int rows, int cols, bool closed, int step) {
  if (!runs(state, B)) return;
  const Sample& s = sample(rows, cols, closed, step);
  const StepRule& rule = s.rules.steps[static_cast<std::size_t>(s.step)];
  std::vector<std::uint64_t> keys = s.keys;
  auto part = [&](std::uint64_t key) { return class_hash(type_pattern(key, s.rules.slots)) >> 52; };
  std::stable_sort(keys.begin(), keys.end(),
                   [&](std::uint64_t a, std::uint64_t b) { return part(a) < part(b); });
  ChoicePlans plans;
  std::uint64_t successors = 0;
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const std::uint64_t key : keys) {
      expand_planned<B>(
          s.rules, rule, key, plans.of<B>(s.rules, rule, key),
          [&](std::uint64_t next, std::uint64_t route) {
            sum += next ^ route;
            ++successors;
          },
          [&] { ++sum; });
    }
    benchmark::DoNotOptimize(sum);
  }
  per_class(state, s.keys.size(), successors);
  state.counters["plans/class"] = static_cast<double>(plans.plans_made()) /
                                  static_cast<double>(state.iterations() * s.keys.size());
}

template <BitKernel B>
void unpack_all(benchmark::State& state, int rows, int cols, bool closed, int step) {
  if (!runs(state, B)) return;
  const Sample& s = sample(rows, cols, closed, step);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const std::uint64_t key : s.keys) {
      Frontier f;
      unpack<B>(key, s.rules.slots, 1, f);
      sum += f.free + f.done + f.mate[2] + f.mate[5];
    }
    benchmark::DoNotOptimize(sum);
  }
  per_class(state, s.keys.size());
}

template <BitKernel B>
void round_trip_all(benchmark::State& state, int rows, int cols, bool closed, int step) {
  if (!runs(state, B)) return;
  const Sample& s = sample(rows, cols, closed, step);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const std::uint64_t key : s.keys) {
      Frontier f;
      unpack<B>(key, s.rules.slots, 0, f);
      sum += pack<B>(f, s.rules.slots);
    }
    benchmark::DoNotOptimize(sum);
  }
  per_class(state, s.keys.size());
}

// What the machine's memory moves: a copy of 256 MiB (past every cache), bytes read plus
// bytes written a second, per thread and over all threads (Threads). A step moves about 42
// bytes a class expanded (docs/frontier.md, "Where the time goes"): this bounds how fast a
// step could be if it did nothing but move its classes.
void memory_copy(benchmark::State& state) {
  constexpr std::size_t kBytes = std::size_t{256} << 20;
  std::vector<char> from(kBytes, 1), to(kBytes, 0);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), kBytes);
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                          static_cast<std::int64_t>(kBytes));
}
BENCHMARK(memory_copy)->Unit(benchmark::kMillisecond)->ThreadRange(1, 2)->UseRealTime();

// Generations at or near the widest steps: 6x12 closed (1.4 M classes), 7x8 closed (14.5 M;
// built in about 20 s), 6x7 open tours (3.6 M, the all-starts job's kind of class). Each with
// both ways of packing keys (bit_kernel.hpp); bmi2 is skipped where the CPU lacks BMI2.
// Each benchmark with both ways of packing keys (bit_kernel.hpp), one after the other, so that
// the machine's drift hits both alike; bmi2 is skipped where the CPU lacks BMI2.
const bool registered = [] {
  struct Case {
    const char* job;
    int rows, cols;
    bool closed;
    int step;
  };
  using Bench = void (*)(benchmark::State&, int, int, bool, int);
  struct Kernel {
    const char* name;
    Bench bench;
  };
  struct Benches {
    const char* name;
    Kernel kernels[2];
  };
  const Benches expand = {
      "expand_all",
      {{"portable", expand_all<BitKernel::portable>}, {"bmi2", expand_all<BitKernel::bmi2>}}};
  const Benches planned = {"expand_planned_all",
                           {{"portable", expand_planned_all<BitKernel::portable>},
                            {"bmi2", expand_planned_all<BitKernel::bmi2>}}};
  const Benches unpack = {
      "unpack_all",
      {{"portable", unpack_all<BitKernel::portable>}, {"bmi2", unpack_all<BitKernel::bmi2>}}};
  const Benches round_trip = {"round_trip_all",
                              {{"portable", round_trip_all<BitKernel::portable>},
                               {"bmi2", round_trip_all<BitKernel::bmi2>}}};
  const std::pair<Case, std::vector<Benches>> runs[] = {
      {{"6x12_closed_step45", 6, 12, true, 45}, {expand, planned, unpack, round_trip}},
      {{"6x7_open_step30", 6, 7, false, 30}, {expand, planned, unpack}},
      {{"7x8_closed_step40", 7, 8, true, 40}, {expand, planned, unpack}}};
  for (const auto& [c, benches] : runs) {
    for (const Benches& b : benches) {
      for (const Kernel& k : b.kernels) {
        const std::string name = std::string(b.name) + "/" + k.name + "/" + c.job;
        benchmark::RegisterBenchmark(name.c_str(), k.bench, c.rows, c.cols, c.closed, c.step)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
