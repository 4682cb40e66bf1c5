#include "knightstour/frontier/frontier_counter.hpp"

#include <malloc.h>
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
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>

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
  std::atomic<std::uint64_t> expanded{0};  // of those, expanded so far in this pass
  std::atomic<int> pass{0};                // passes over the generation this step, so far
  std::atomic<int> passes{1};              // passes planned (more when memory is short)
  std::atomic<std::uint64_t> spilled{0};   // bytes written to spill files
  Clock::time_point started = Clock::now();

  // The sizes after each step and the classes expanded in finished steps, for the progress
  // thread: the sweep's own copy (FrontierResult) grows while that thread would read it.
  void step_done(std::uint64_t expanded_in_step, std::uint64_t size_after) {
    std::lock_guard lock(history_mutex);
    expanded_before += expanded_in_step;
    sizes.push_back(size_after);
  }
  std::pair<std::vector<std::uint64_t>, std::uint64_t> history() const {
    std::lock_guard lock(history_mutex);
    return {sizes, expanded_before};
  }

 private:
  mutable std::mutex history_mutex;
  std::vector<std::uint64_t> sizes;
  std::uint64_t expanded_before = 0;
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

// Hands memory freed by tables and spilled parts back to the system. glibc keeps freed
// chunks of its per-thread heaps resident; without this, resident memory on 8x8 grew to
// the budget plus several GiB of freed tables and nearly exhausted the machine.
void return_freed_memory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

// Budget bytes a part table holds per class, on average over its doublings (a table is 3/8
// to 3/4 full; while it doubles, the old and the new one are both held).
constexpr std::uint64_t kTableBytesPerClass = 40;

// One step: expands every class of `current` into `next`.
//
// When the next generation's tables may not fit the memory budget, the step makes several
// passes over `current`, each building the tables of a range of parts only, and writes each
// range's classes to a spill file before the next pass starts (the current generation then
// goes to a spill file too). A pass that still runs out of memory is redone as two half
// ranges. Without a spill area the step stops at the budget as before.
template <int K>
StepEnd run_step(const StepRules& rules, int k, Generation<K>& current, Generation<K>& next,
                 std::uint64_t expected_next, WideCount<K>& closed, MemoryBudget& budget,
                 SpillArea& spill, StopControl& stop, Live& live) {
  const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
  const int bits = part_bits(current.size() + current.size() / 2);
  const std::size_t parts = std::size_t{1} << bits;
  const int shift = 64 - bits;
  auto part_of = [&](std::uint64_t key) -> std::size_t {
    return bits == 0 ? 0 : static_cast<std::size_t>(class_hash(key) >> shift);
  };
  tbb::enumerable_thread_specific<Stage<K>> stages([&] { return Stage<K>(parts); });

  // Passes: as many as the expected tables need, with room to spare.
  bool spilling = false;
  std::optional<PartSpiller<K>> out;
  auto start_spilling = [&] {
    if (spilling) return;
    spilling = true;
    spill_parts(current, spill, budget);  // frees the budget the current generation held
    out.emplace(spill);
    for (std::size_t p = 0; p < next.parts.size(); ++p) out->add(next.parts[p], p, budget);
    live.spilled = spill.bytes_written();
  };
  next.parts.assign(parts, {});
  // A step that does not finish leaves `next` empty, with its budget returned.
  auto abandon = [&](StepEnd end) {
    budget.release(next.memory_bytes());
    next = {};
    return end;
  };
  std::size_t passes = 1;
  if (spill.enabled()) {
    const std::uint64_t need = expected_next * kTableBytesPerClass;
    if (need > budget.room() / 2) {
      start_spilling();  // frees what the current generation held: room grows
      passes = static_cast<std::size_t>(std::min<std::uint64_t>(
          parts, 1 + need / std::max<std::uint64_t>(1, budget.room() * 3 / 4)));
    }
  }
  std::deque<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t i = 0; i < passes; ++i)
    ranges.emplace_back(parts * i / passes, parts * (i + 1) / passes);
  live.passes = static_cast<int>(passes);
  live.pass = 0;
  bool closed_taken = false;

  while (!ranges.empty()) {
    const std::size_t lo = ranges.front().first, hi = ranges.front().second;
    ranges.pop_front();
    live.pass = live.pass + 1;
    live.expanded = 0;
    std::unique_ptr<PartTable<K>[]> tables(new PartTable<K>[hi - lo]);
    std::atomic<bool> abort{false};
    for (auto& st : stages) {
      std::fill(st.fill.begin(), st.fill.end(), 0);
      st.closed = {};
      st.overflow = false;
    }
    auto release_tables = [&] {
      for (std::size_t p = lo; p < hi; ++p) tables[p - lo].release(budget);
    };
    auto flush = [&](Stage<K>& st, std::size_t p) {
      const std::size_t at = p * kStage;
      if (!tables[p - lo].add(&st.keys[at], &st.counts[at], st.fill[p], budget, st.overflow))
        abort = true;
      st.fill[p] = 0;
    };
    tbb::parallel_for(std::size_t{0}, current.parts.size(), [&](std::size_t part) {
      const auto& in = current.parts[part];
      const std::uint64_t* keys = in.key_data();
      const WideCount<K>* counts = in.count_data();
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size(), kPollEvery),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          if (abort.load(std::memory_order_relaxed)) return;
                          if (stop.poll()) {
                            abort = true;
                            return;
                          }
                          Stage<K>& st = stages.local();
                          for (std::size_t i = range.begin(); i != range.end(); ++i) {
                            const WideCount<K>& count = counts[i];
                            expand(
                                rules, rule, keys[i],
                                [&](std::uint64_t key) {
                                  const std::size_t p = part_of(key);
                                  if (p < lo || p >= hi) return;
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
      for (std::size_t p = lo; p < hi; ++p) {
        if (st.fill[p] > 0) flush(st, p);
      }
    }
    bool overflow = false;
    for (auto& st : stages) overflow = overflow || st.overflow;
    const bool out_of_memory = budget.exceeded() && !stop.stopped();
    if (abort.load() || stop.stopped() || overflow) {
      release_tables();
      if (overflow) return abandon(StepEnd::overflow);
      if (!out_of_memory || !spill.enabled() || hi - lo == 1) return abandon(StepEnd::stopped);
      // Out of memory: make room on disk and redo the range in two halves.
      budget.clear_exceeded();
      start_spilling();
      const std::size_t mid = lo + (hi - lo) / 2;
      ranges.emplace_front(mid, hi);
      ranges.emplace_front(lo, mid);
      live.passes = live.passes + 1;
      live.pass = live.pass - 1;
      continue;
    }
    if (!closed_taken) {
      closed_taken = true;
      WideCount<K> sum = closed;
      bool wide = false;
      for (auto& st : stages) wide = sum.add(st.closed) || wide;
      if (wide) {
        release_tables();
        return abandon(StepEnd::overflow);
      }
      closed = sum;
    }
    tbb::parallel_for(lo, hi, [&](std::size_t p) { tables[p - lo].drain(next.parts[p], budget); });
    tables.reset();
    if (spilling) {
      for (std::size_t p = lo; p < hi; ++p) out->add(next.parts[p], p, budget);
      live.spilled = spill.bytes_written();
      return_freed_memory();
    }
  }
  if (spilling) {
    out->map(next);
    live.spilled = spill.bytes_written();
  }
  return StepEnd::done;
}

template <int K>
std::uint64_t bytes_of(const Generation<K>& g) {
  return g.memory_bytes();
}

// The next generation's size as the last steps' growth suggests (a guess: it plans passes).
std::uint64_t expected_size(const std::vector<std::uint64_t>& sizes, std::uint64_t now) {
  double growth = 2;
  if (sizes.size() >= 2 && sizes[sizes.size() - 2] > 0) {
    growth = std::clamp(
        static_cast<double>(sizes.back()) / static_cast<double>(sizes[sizes.size() - 2]), 1.0, 4.0);
  }
  return static_cast<std::uint64_t>(static_cast<double>(now) * growth);
}

}  // namespace

SweepOutlook sweep_outlook(const std::vector<std::uint64_t>& sizes, int step, int steps, int width,
                           std::uint64_t left_in_step) {
  SweepOutlook out;
  out.classes_left = static_cast<double>(left_in_step);
  if (sizes.empty() || width <= 0) return out;
  const auto w = static_cast<std::size_t>(width);
  std::vector<double> s(sizes.begin(), sizes.end());  // s[i]: after step step - size + i
  out.peak_classes = static_cast<double>(sizes.back());
  // Growth over the last column at the same place in it (log), fading per column.
  double log_growth = 0;
  if (s.size() > w && s[s.size() - 1 - w] > 0 && s.back() > 0) {
    log_growth = std::max(0.0, std::log(s.back() / s[s.size() - 1 - w]));
  }
  const double fade = std::pow(kOutlookFadePerColumn, 1.0 / width);
  for (int j = step; j < steps - 1; ++j) {  // the generation after step j, expanded at j + 1
    log_growth = j / width >= kOutlookFlatFromColumn ? 0 : log_growth * fade;
    const double column_before = s.size() >= w ? s[s.size() - w] : s.back();
    double c = 0;
    if (j >= steps - width) {
      c = s.back() * 0.5;  // the last column: paths must close, classes die off
    } else if (j >= steps - 2 * width) {
      c = column_before * 0.7;
    } else {
      c = column_before * std::exp(log_growth);
    }
    s.push_back(c);
    out.classes_left += c;
    out.peak_classes = std::max(out.peak_classes, c);
  }
  return out;
}

namespace {

// The counter for counts of K limbs; returns false when the counts outgrew K limbs (the
// caller continues wider from `state`).
template <int K>
bool sweep_with(const StepRules& rules, FrontierState& state, const FrontierOptions& options,
                StopControl& stop, MemoryBudget& budget, SpillArea& spill, Live& live,
                FrontierResult& result) {
  Generation<K> current = std::move(std::get<Generation<K>>(state.classes));
  result.limbs = K;
  while (state.next_step < rules.squares && state.next_step != options.until_step) {
    const int k = state.next_step;
    live.step = k;
    live.current = current.size();
    live.expanded = 0;
    live.passes = 1;
    Generation<K> next;
    WideCount<K> closed;
    const StepEnd end =
        run_step(rules, k, current, next, expected_size(result.classes, current.size()), closed,
                 budget, spill, stop, live);
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
    const std::uint64_t expanded_in_step = current.size();
    result.expanded += expanded_in_step;
    result.max_passes = std::max(result.max_passes, live.passes.load());
    budget.release(bytes_of(current));
    const bool large = bytes_of(current) > (std::uint64_t{256} << 20) || live.passes.load() > 1;
    current = std::move(next);
    if (large) return_freed_memory();  // small steps reuse the heap; trimming costs them faults
    state.next_step = k + 1;
    result.steps_done = state.next_step;
    result.steps_seconds = std::chrono::duration<double>(Clock::now() - live.started).count();
    result.classes.push_back(current.size());
    live.step_done(expanded_in_step, current.size());
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
  SpillArea spill(options.spill_dir);
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
  live.started = started;
  // What the job's progress line shows of this sweep. The projection of the classes left
  // is too rough in the first two columns (off by up to 21x there, results/frontier/README.md),
  // so no time is projected before the third.
  auto snapshot = [&] {
    SweepSnapshot s;
    s.label = options.label;
    s.step = live.step.load();
    s.steps = rules.squares;
    s.width = rules.width;
    s.pass = live.pass.load();
    s.passes = live.passes.load();
    s.classes = live.current.load();
    s.budget_gib = static_cast<double>(budget.used()) / 1.073741824e9;
    s.spilled_gib = static_cast<double>(live.spilled.load()) / 1.073741824e9;
    auto [sizes, expanded_before] = live.history();
    const std::uint64_t done = expanded_before + live.expanded.load();
    if (done > 0 && s.step >= 2 * rules.width) {
      if (sizes.empty()) sizes.push_back(s.classes);
      const SweepOutlook outlook =
          sweep_outlook(sizes, s.step, rules.squares, rules.width,
                        s.classes - std::min(s.classes, live.expanded.load()));
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      s.seconds_left = outlook.classes_left * elapsed / static_cast<double>(done);
    }
    return s;
  };
  struct Watching {
    SweepWatch* watch;
    ~Watching() {
      if (watch != nullptr) watch->stop_watching();
    }
  } watching{options.watch};
  if (options.watch != nullptr) options.watch->watch(snapshot);
  {
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
                return sweep_with<1>(rules, state, options, stop, budget, spill, live, result);
              } else if constexpr (std::is_same_v<G, Generation<2>>) {
                return sweep_with<2>(rules, state, options, stop, budget, spill, live, result);
              } else if constexpr (std::is_same_v<G, Generation<4>>) {
                return sweep_with<4>(rules, state, options, stop, budget, spill, live, result);
              } else {
                return sweep_with<8>(rules, state, options, stop, budget, spill, live, result);
              }
            },
            state.classes);
        if (finished) break;
        // The counts outgrew their limbs: the same step again, twice as wide.
        std::visit(
            [&](auto& g) {
              using G = std::decay_t<decltype(g)>;
              if constexpr (G::kLimbs < 8) {
                state.classes = widened(std::move(g), budget, &spill);
              } else {
                throw std::overflow_error("the count exceeds 512 bits");
              }
            },
            state.classes);
      }
    });
  }
  result.peak_bytes = budget.peak();
  result.spilled_bytes = spill.bytes_written();
  if (!result.complete) {
    // The step it stopped in is redone whole, so all of its classes are still to expand.
    const std::uint64_t now =
        std::visit([](const auto& g) -> std::uint64_t { return g.size(); }, state.classes);
    std::vector<std::uint64_t> sizes = result.classes;
    if (sizes.empty()) sizes.push_back(now);
    result.outlook = sweep_outlook(sizes, state.next_step, rules.squares, rules.width, now);
  }
  if (!result.complete && result.stop_reason == StopReason::none &&
      state.next_step == options.until_step) {
    result.paused = std::move(state);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace knightstour
