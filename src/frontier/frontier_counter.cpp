#include "knightstour/frontier/frontier_counter.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "knightstour/base/progress.hpp"
#include "knightstour/base/threads.hpp"
#include "knightstour/frontier/transition.hpp"

namespace knightstour {

namespace {

using Clock = std::chrono::steady_clock;

// Classes staged per part and thread before they go to the part's table under its lock.
constexpr int kStage = 64;
// Classes between two looks at the stop control.
constexpr std::size_t kPollEvery = 4096;

// What the progress line reads while a step runs.
struct Live {
  std::atomic<int> step{0};
  std::atomic<std::uint64_t> current{0};   // classes of the generation being expanded
  std::atomic<std::uint64_t> expanded{0};  // of those, expanded so far
  std::atomic<std::uint64_t> next{0};      // classes made so far for the next generation
};

// Parts for a generation expected to hold about `classes`: about 2^15 classes a part (its
// table stays in cache while a staged batch goes in), at most 4096.
int part_bits(std::uint64_t classes) {
  int bits = 0;
  while (bits < 12 && (std::uint64_t{1} << (bits + 14)) < classes) ++bits;
  return bits;
}

template <int K>
struct Stage {
  explicit Stage(std::size_t parts)
      : keys(parts * kStage), counts(parts * kStage), fill(parts, 0) {}
  std::vector<std::uint64_t> keys;
  std::vector<WideCount<K>> counts;
  std::vector<int> fill;
  WideCount<K> closed;  // cycles completed (last step)
  bool overflow = false;
};

enum class StepEnd { done, overflow, stopped };

// One step: expands every class of `current` into `next`.
template <int K>
StepEnd run_step(const StepRules& rules, int k, const Generation<K>& current, Generation<K>& next,
                 WideCount<K>& closed, MemoryBudget& budget, StopControl& stop, Live& live) {
  const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
  const int bits = part_bits(current.size() + current.size() / 2);
  const std::size_t parts = std::size_t{1} << bits;
  const int shift = 64 - bits;
  auto part_of = [&](std::uint64_t key) -> std::size_t {
    return bits == 0 ? 0 : static_cast<std::size_t>(class_hash(key) >> shift);
  };
  std::unique_ptr<PartTable<K>[]> tables(new PartTable<K>[parts]);
  tbb::enumerable_thread_specific<Stage<K>> stages([&] { return Stage<K>(parts); });
  std::atomic<bool> abort{false};

  auto flush = [&](Stage<K>& st, std::size_t p) {
    const std::size_t at = p * kStage;
    if (!tables[p].add(&st.keys[at], &st.counts[at], st.fill[p], budget, st.overflow)) abort = true;
    st.fill[p] = 0;
  };

  tbb::parallel_for(std::size_t{0}, current.parts.size(), [&](std::size_t part) {
    const auto& in = current.parts[part];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.keys.size(), kPollEvery),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        if (abort.load(std::memory_order_relaxed)) return;
                        if (stop.poll()) {
                          abort = true;
                          return;
                        }
                        Stage<K>& st = stages.local();
                        for (std::size_t i = range.begin(); i != range.end(); ++i) {
                          const WideCount<K>& count = in.counts[i];
                          expand(
                              rules, rule, in.keys[i],
                              [&](std::uint64_t key) {
                                const std::size_t p = part_of(key);
                                const std::size_t at =
                                    p * kStage + static_cast<std::size_t>(st.fill[p]);
                                st.keys[at] = key;
                                st.counts[at] = count;
                                if (++st.fill[p] == kStage) flush(st, p);
                              },
                              [&] {
                                if (st.closed.add(count)) st.overflow = true;
                              });
                        }
                        live.expanded.fetch_add(range.size(), std::memory_order_relaxed);
                      });
  });
  for (auto& st : stages) {
    for (std::size_t p = 0; p < parts; ++p) {
      if (st.fill[p] > 0) flush(st, p);
    }
  }
  bool overflow = false;
  for (auto& st : stages) {
    overflow = overflow || st.overflow;
    if (closed.add(st.closed)) overflow = true;
  }
  const bool stopped = abort.load() || stop.stopped();
  if (stopped || overflow) {
    for (std::size_t p = 0; p < parts; ++p) tables[p].release(budget);
    return stopped ? StepEnd::stopped : StepEnd::overflow;
  }
  next.parts.assign(parts, {});
  tbb::parallel_for(std::size_t{0}, parts,
                    [&](std::size_t p) { tables[p].drain(next.parts[p], budget); });
  return StepEnd::done;
}

template <int K>
std::uint64_t bytes_of(const Generation<K>& g) {
  return g.size() * Generation<K>::kClassBytes;
}

// Rough seconds left: the time per class so far, over the classes the rest of the sweep is
// expected to hold. Classes grow by about the same factor per column of the sweep until the
// last two columns, where squares run out of neighbours and the classes die off.
double eta_seconds(const std::vector<std::uint64_t>& sizes, int step, int steps, int width,
                   double seconds_per_class, std::uint64_t left_in_step) {
  if (seconds_per_class <= 0 || sizes.empty()) return -1;
  const double now = static_cast<double>(sizes.back());
  double growth = 1;
  if (sizes.size() > static_cast<std::size_t>(width) &&
      sizes[sizes.size() - 1 - static_cast<std::size_t>(width)] > 0) {
    growth = now / static_cast<double>(sizes[sizes.size() - 1 - static_cast<std::size_t>(width)]);
  }
  growth = std::clamp(growth, 1.0, 16.0);
  const int rising_until = steps - 2 * width;
  double left = static_cast<double>(left_in_step);
  double c = now;
  for (int j = step + 1; j < steps; ++j) {
    if (j <= rising_until) {
      c *= std::pow(growth, 1.0 / width);
    } else if (j > steps - width) {
      c *= 0.5;
    }
    left += c;
  }
  return left * seconds_per_class;
}

// The counter for counts of K limbs; returns false when the counts outgrew K limbs (the
// caller continues wider from `state`).
template <int K>
bool sweep_with(const StepRules& rules, FrontierState& state, const FrontierOptions& options,
                StopControl& stop, MemoryBudget& budget, Live& live, FrontierResult& result,
                const Clock::time_point started) {
  Generation<K> current = std::move(std::get<Generation<K>>(state.classes));
  result.limbs = K;
  while (state.next_step < rules.squares) {
    const int k = state.next_step;
    live.step = k;
    live.current = current.size();
    live.expanded = 0;
    Generation<K> next;
    WideCount<K> closed;
    const StepEnd end = run_step(rules, k, current, next, closed, budget, stop, live);
    if (end == StepEnd::overflow) {
      state.classes = std::move(current);
      return false;
    }
    if (end == StepEnd::stopped) {
      result.stop_reason = budget.exceeded() ? StopReason::memory : stop.reason();
      if (result.stop_reason == StopReason::none) result.stop_reason = StopReason::signal;
      state.classes = std::move(current);
      return true;
    }
    result.expanded += current.size();
    budget.release(bytes_of(current));
    current = std::move(next);
    state.next_step = k + 1;
    result.steps_done = state.next_step;
    result.classes.push_back(current.size());
    result.peak_classes = std::max(result.peak_classes, current.size());
    if (k == rules.squares - 1) {
      result.count = BigCount::of(closed);
      result.complete = true;
    } else if (options.after_step) {
      state.classes = std::move(current);
      options.after_step(state);
      current = std::move(std::get<Generation<K>>(state.classes));
    }
  }
  (void)started;
  state.classes = std::move(current);
  return true;
}

}  // namespace

FrontierResult run_frontier(const Sweep& sweep, const FrontierTarget& target,
                            const FrontierOptions& options, StopControl& stop,
                            std::optional<FrontierState> resume) {
  const auto started = Clock::now();
  const StepRules rules = make_step_rules(sweep, target);
  FrontierResult result;
  result.steps = rules.squares;
  MemoryBudget budget(options.memory_limit);
  FrontierState state;
  if (resume) {
    state = std::move(*resume);
  } else {
    // Before square 0: T free (open tours) or done (cycles), every window slot without a square.
    Frontier empty;
    empty.done = ((1u << rules.slots) - 1) & ~(target.closed ? 0u : 1u);
    empty.free = target.closed ? 0u : 1u;
    Generation<1> first;
    first.parts.resize(1);
    first.parts[0].keys.push_back(pack(empty, rules.slots));
    first.parts[0].counts.push_back(WideCount<1>{{1}});
    state.classes = std::move(first);
  }
  std::visit([&](const auto& g) { budget.charge(bytes_of(g)); }, state.classes);

  Live live;
  auto status = [&] {
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    const std::uint64_t done = result.expanded + live.expanded.load();
    std::vector<std::uint64_t> sizes = result.classes;
    if (sizes.empty()) sizes.push_back(live.current.load());
    const double eta =
        eta_seconds(sizes, live.step.load(), rules.squares, rules.width,
                    done > 0 ? elapsed / static_cast<double>(done) : 0,
                    live.current.load() - std::min(live.current.load(), live.expanded.load()));
    const int step = live.step.load();
    return options.label + ": step " + std::to_string(step + 1) + "/" +
           std::to_string(rules.squares) + " (column " + std::to_string(step / rules.width + 1) +
           " of " + std::to_string(rules.squares / rules.width) + "), " +
           human_count(static_cast<double>(live.current.load())) + " classes, " +
           human_count(static_cast<double>(budget.used()) / 1.073741824e9) + " GiB, elapsed " +
           human_duration(elapsed) + ", ETA ~" + human_duration(eta);
  };
  {
    // The bar: steps done (steps differ in cost, so it is a rough share).
    ProgressMonitor monitor(options.progress_seconds, status, [&] {
      return static_cast<double>(live.step.load()) / std::max(1, rules.squares);
    });
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(std::max(options.threads, 1)));
    check_threads_can_start(
        std::max(options.threads, 1),
        tbb::global_control::active_value(tbb::global_control::thread_stack_size));
    tbb::task_arena arena(std::max(options.threads, 1));
    arena.execute([&] {
      while (true) {
        const bool finished = std::visit(
            [&](auto& g) {
              using G = std::decay_t<decltype(g)>;
              if constexpr (std::is_same_v<G, Generation<1>>) {
                return sweep_with<1>(rules, state, options, stop, budget, live, result, started);
              } else if constexpr (std::is_same_v<G, Generation<2>>) {
                return sweep_with<2>(rules, state, options, stop, budget, live, result, started);
              } else if constexpr (std::is_same_v<G, Generation<4>>) {
                return sweep_with<4>(rules, state, options, stop, budget, live, result, started);
              } else {
                return sweep_with<8>(rules, state, options, stop, budget, live, result, started);
              }
            },
            state.classes);
        if (finished) break;
        // The counts outgrew their limbs: the same step again, twice as wide.
        std::visit(
            [&](auto& g) {
              using G = std::decay_t<decltype(g)>;
              if constexpr (G::kLimbs < 8) {
                state.classes = widened(std::move(g), budget);
              } else {
                throw std::overflow_error("the count exceeds 512 bits");
              }
            },
            state.classes);
      }
    });
  }
  result.peak_bytes = budget.peak();
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace knightstour
