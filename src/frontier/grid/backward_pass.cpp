#include "frontier/grid/backward_pass.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/mirror.hpp"
#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/grid/completion_tables.hpp"
#include "frontier/step/choice_plans.hpp"
#include "frontier/step/step_plan.hpp"
#include "knightstour/base/huge_chunks.hpp"
#include "knightstour/base/threads.hpp"
#include "knightstour/frontier/bit_kernel.hpp"

namespace knightstour {

int pass_last_step(const Sweep& sweep) {
  const int half = sweep.size() / 2;
  return half - half % sweep.width();
}

using frontier_detail::completion_tables_bytes;
using frontier_detail::CompletionTables;

namespace {

// Classes a task of the pass expands, between two looks at the stop control.
constexpr std::size_t kSliceClasses = 2 * CompactClasses::kBlockClasses;

void fail_check(const char* what) { throw std::logic_error(std::string("backward pass: ") + what); }

// The pass, its counts in K limbs.
template <int K>
class Pass {
 public:
  Pass(const Sweep& sweep, const FrontierOptions& forward, const StepRules& rules,
       StopControl& stop, BackwardProgress* progress)
      : sweep_(sweep),
        forward_(forward),
        rules_(rules),
        stop_(stop),
        progress_(progress),
        last_step_(pass_last_step(sweep)),
        pair_ends_(static_cast<std::size_t>(sweep.size())) {}

  BackwardPassResult run(const KeptGenerations& kept, const BigCount& paths) {
    const int n = sweep_.size();
    BackwardPassResult out;
    for (int k = n - 1; k >= last_step_; --k) {
      const AnyGeneration* generation = generation_at(k, kept, out);
      if (generation == nullptr) return {};  // stopped while recomputing a column
      const bool done = std::visit(
          [&](const auto& g) {
            constexpr int L = std::decay_t<decltype(g)>::kLimbs;
            if constexpr (L > K) {
              fail_check("a generation wider than the pass");
              return false;
            } else {
              return step(k, g);
            }
          },
          *generation);
      if (!done) return {};
      const std::uint64_t size = classes_in(*generation);
      out.expanded += size;
      if (progress_ != nullptr) {
        progress_->classes_done += size;
        progress_->steps_done = n - k;
      }
    }
    if (!(last_paths_ == paths.to_wide<K>())) fail_check("its paths differ from the sweep's");
    out.threads = static_cast<int>(locals_.size());
    // The squares before last_step_: their images under the half turn, v -> n - 1 - v (the
    // pairs map onto pairs). Square 0's pair is the image of square n - 1's, which still
    // lacks square n - 1's own ends.
    for (int v = 0; v < last_step_; ++v) {
      if (pair_of(v) == v)
        pair_ends_[static_cast<std::size_t>(v)] =
            pair_ends_[static_cast<std::size_t>(pair_of(n - 1 - v))];
    }
    // The last square's ends (and, when the half turn gave square 0's pair, square 0's, as
    // many): twice the paths, less every other square's.
    WideCount<K> last = (paths * 2).to_wide<K>();
    for (const auto& e : pair_ends_) {
      if (last.subtract(e)) fail_check("more ends than twice the paths");
    }
    if (last_step_ > 0) {
      const BigCount both = BigCount::of(last);
      const BigCount half = both / 2;
      if (!(half * 2 == both)) fail_check("the half turn left an odd number of ends");
      last = half.to_wide<K>();
      pair_ends_[0].add(last);
    }
    pair_ends_[static_cast<std::size_t>(pair_of(n - 1))].add(last);
    out.tours_by_square.assign(static_cast<std::size_t>(n), BigCount{});
    for (int v = 0; v < n; ++v) {
      const BigCount sum = BigCount::of(pair_ends_[static_cast<std::size_t>(pair_of(v))]);
      out.tours_by_square[static_cast<std::size_t>(sweep_.square(v))] =
          mirror_of(v) == v ? sum : sum / 2;
    }
    return out;
  }

 private:
  static constexpr std::size_t kBatch = 32;
  // A successor of a batch's class, its completions looked up once the batch is expanded
  // and every lookup's slot prefetched (one lookup waited on at a time took 1.8x the time
  // on 6x8, whose tables are far larger than the cache).
  struct Successor {
    std::uint64_t key;
    typename CompletionTables<K>::Probe at;  // where its lookup begins
    std::uint32_t of;                        // the class, in the batch
    bool took_t;                             // it gave T an edge: square k is an end
  };
  // A thread's own, kept from step to step (its plans and successor buffer).
  struct Local {
    WideCount<K> ends;
    WideCount<K> paths;  // the last step: sum of n(X) c(X)
    bool overflow = false;
    std::vector<Successor> successors;
    ChoicePlans plans;  // the step's choices by type pattern, as the sweep takes them
  };

  // Generation k: kept, or recomputed with the rest of its column from the column's first
  // (the sweep's own engine, forward_'s options); nullptr when stopped.
  const AnyGeneration* generation_at(int k, const KeptGenerations& kept, BackwardPassResult& out) {
    if (kept.has(k)) return &kept.at(k);
    const int from = k - k % sweep_.width();
    if (column_from_ != from) {
      column_.clear();
      column_from_ = -1;
      FrontierOptions o = forward_;
      o.until_step = std::min(from + sweep_.width() - 1, sweep_.size() - 1);
      o.after_step = [&](const FrontierState& s) { column_.push_back(s.classes); };
      o.watch = nullptr;
      o.label = "the pass back, recomputing a column";
      const FrontierResult r = run_frontier(sweep_, FrontierTarget{false, std::nullopt}, o, stop_,
                                            FrontierState{from, kept.at(from)});
      if (!r.paused) return nullptr;
      out.expanded += r.expanded;
      column_from_ = from;
    }
    return &column_[static_cast<std::size_t>(k - from - 1)];
  }

  int mirror_of(int v) const {
    const int w = sweep_.width();
    return v - v % w + (w - 1 - v % w);
  }
  int pair_of(int v) const { return std::min(v, mirror_of(v)); }

  // Slot 0 of a key is T (frontier_class.hpp): 0 free, 1 done (both edges), 2 or 3 an end.
  static int t_edges(std::uint64_t key) {
    const auto t = key & 3u;
    return t == 0 ? 0 : t == 1 ? 2 : 1;
  }

  // Generation k: every class's completions from next_ (generation k + 1) into a new table,
  // and the ends at square k. False when stopped.
  template <int L>
  bool step(int k, const Generation<L>& g) {
    // Kept generations never are (KeptGenerations::keep), and a column recomputed takes the
    // same steps under the same budget as the sweep that kept its first.
    if (g.in_files()) fail_check("a generation in files");
    return bit_kernel_ == BitKernel::bmi2 ? step_by<L, BitKernel::bmi2>(k, g)
                                          : step_by<L, BitKernel::portable>(k, g);
  }

  // Slices of parts, each one task, so that work stealing evens out parts of unequal size (a
  // part holds every class of its type patterns, and one pattern can hold many); first_[p]:
  // the classes before part p.
  template <int L>
  void slice_parts(const Generation<L>& g) {
    slices_.clear();
    first_.assign(g.parts.size() + 1, 0);
    for (std::size_t p = 0; p < g.parts.size(); ++p) {
      const std::size_t size = g.parts[p].size();
      first_[p + 1] = first_[p] + size;
      for (std::size_t b = 0; b < size; b += kSliceClasses)
        slices_.push_back({p, b, std::min(size, b + kSliceClasses)});
    }
  }

  // Classes [b, e) of a decoded block, the first of them class `at` of the generation: each
  // one's completions (to completions_ when the pass keeps them), the ends it adds at square
  // k, and at the last step its paths.
  template <int L, BitKernel B>
  void complete_batch(int k, const StepRule& rule, Local& local, const ClassBuffer<L>& buffer,
                      std::size_t b, std::size_t e, std::size_t at) {
    WideCount<K> c[kBatch], c_t[kBatch];  // completions; of them, through T
    local.successors.clear();
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t key = buffer.keys[i];
      const int t = t_edges(key);
      const auto of = static_cast<std::uint32_t>(i - b);
      expand_planned<B>(
          rules_, rule, key, local.plans.template of<B>(rules_, rule, key),
          [&](std::uint64_t y, std::uint64_t) {
            if (rule.fold_mirror) y = mirror_canonical<B>(y, rules_.mirror);
            const auto probe = next_.probe(y, rules_.slots);
            next_.prefetch(probe);
            local.successors.push_back({y, probe, of, t_edges(y) > t});
          },
          [&] { local.overflow |= c[of].add(count_one()); });
    }
    for (const Successor& y : local.successors) {
      WideCount<K> v;
      if (!next_.find(y.key, y.at, v)) continue;  // a class the sweep found dead
      local.overflow |= c[y.of].add(v);
      if (y.took_t) local.overflow |= c_t[y.of].add(v);
    }
    for (std::size_t i = b; i < e; ++i) {
      const WideCount<K> n = buffer.counts[i].template widened<K>();
      if (k > last_step_) completions_[at + i - b] = c[i - b];
      if (!c_t[i - b].is_zero()) {
        WideCount<K> ends = n;
        local.overflow |= ends.multiply(c_t[i - b]);
        local.overflow |= local.ends.add(ends);
      }
      if (k == last_step_) {
        WideCount<K> paths = n;
        local.overflow |= paths.multiply(c[i - b]);
        local.overflow |= local.paths.add(paths);
      }
    }
  }

  // Each part's table filled by one thread in one go, while it stays in that thread's cache
  // (filled along the expansion, the lookups' misses evicted it between two inserts).
  template <int L>
  void fill_table(const Generation<L>& g,
                  tbb::enumerable_thread_specific<ClassBuffer<L>>& buffers) {
    tbb::parallel_for(std::size_t{0}, g.parts.size(), [&](std::size_t p) {
      here_.clear(p);
      const WideCount<K>* c = completions_.data() + first_[p];
      std::size_t i = 0;
      g.parts[p].template for_each_chunk<L>(
          0, g.parts[p].size(), buffers.local(),
          [&](const std::uint64_t* keys, const WideCount<L>*, std::size_t n) {
            for (std::size_t j = 0; j < n; ++j, ++i) here_.insert(p, keys[j], c[i]);
          });
    });
  }

  template <int L, BitKernel B>
  bool step_by(int k, const Generation<L>& g) {
    const StepRule& rule = rules_.steps[static_cast<std::size_t>(k)];
    slice_parts(g);
    if (k > last_step_) {
      here_.lay_out(g);
      completions_.resize(first_.back());
    }
    for (Local& local : locals_) local.ends = local.paths = WideCount<K>{};
    tbb::enumerable_thread_specific<ClassBuffer<L>> buffers;
    std::atomic<bool> stopped{false};
    tbb::parallel_for(std::size_t{0}, slices_.size(), [&](std::size_t at) {
      if (stopped.load(std::memory_order_relaxed) || stop_.poll()) {
        stopped = true;
        return;
      }
      const PartSlice slice = slices_[at];
      const auto& part = g.parts[slice.part];
      Local& local = locals_.local();
      ClassBuffer<L>& buffer = buffers.local();
      constexpr std::size_t kBlock = CompactClasses::kBlockClasses;
      // A slice is whole blocks (kSliceClasses is a multiple of one), each decoded once.
      for (std::size_t block = slice.begin / kBlock; block * kBlock < slice.end; ++block) {
        const std::size_t base = block * kBlock;
        const std::size_t in_block = part.decode(block, buffer);
        for (std::size_t b = 0; b < in_block; b += kBatch) {
          complete_batch<L, B>(k, rule, local, buffer, b, std::min(in_block, b + kBatch),
                               first_[slice.part] + base + b);
        }
      }
    });
    if (stopped) return false;
    if (k > last_step_) fill_table(g, buffers);
    WideCount<K>& ends = pair_ends_[static_cast<std::size_t>(pair_of(k))];
    for (const Local& local : locals_) {
      if (local.overflow || ends.add(local.ends) || last_paths_.add(local.paths))
        fail_check("a count overflowed");
    }
    next_.swap(here_);
    return true;
  }

  static WideCount<K> count_one() {
    WideCount<K> w;
    w.limb[0] = 1;
    return w;
  }

  const Sweep& sweep_;
  const FrontierOptions& forward_;
  const StepRules& rules_;
  StopControl& stop_;
  BackwardProgress* progress_;
  const int last_step_;                  // the generation the pass ends with (pass_last_step)
  std::vector<WideCount<K>> pair_ends_;  // by the pair's smaller sweep vertex
  WideCount<K> last_paths_;              // sum of n(X) c(X) over generation last_step_
  CompletionTables<K> next_;             // generation k + 1's completions
  CompletionTables<K> here_;             // generation k's, filled by the step
  struct PartSlice {
    std::size_t part, begin, end;  // classes [begin, end) of a part
  };
  std::vector<PartSlice> slices_;          // the step's tasks
  std::vector<std::size_t> first_;         // part p's classes: [first_[p], first_[p + 1])
  std::vector<WideCount<K>> completions_;  // generation k's, by that numbering
  std::vector<AnyGeneration> column_;      // generations column_from_ + 1 ... recomputed
  int column_from_ = -1;
  const BitKernel bit_kernel_ = forward_.bit_kernel();  // forward_ is initialized before
  tbb::enumerable_thread_specific<Local> locals_;
};

}  // namespace

namespace {

// The limbs of the pass's counts: every product and sum counts distinct paths, at most twice
// the paths; the forward counts of a class can be wider than that (partial paths that die
// out). A width the generations come in: 1, 2, 4, 8 or 16.
int pass_limbs(const KeptGenerations& kept, const BigCount& paths) {
  const int limbs = std::max((paths * 2).limbs_used(), kept.limbs());
  int k = 1;
  while (k < limbs) k *= 2;
  return k;
}

}  // namespace

std::uint64_t pass_scratch_bytes(const Sweep& sweep, const KeptGenerations& kept,
                                 std::uint64_t peak_classes, const BigCount& paths) {
  const int limbs = pass_limbs(kept, paths);
  const std::uint64_t bytes = completion_tables_bytes(2 * peak_classes, limbs);
  const auto k = static_cast<std::uint64_t>(limbs);
  const std::uint64_t tables = 2 * bytes + peak_classes * 8 * k;  // and the completions
  const std::uint64_t column = kept.columns_only()
                                   ? static_cast<std::uint64_t>(sweep.width() - 1) * peak_classes *
                                         8 * (1 + static_cast<std::uint64_t>(kept.limbs()))
                                   : 0;
  return tables + column;
}

BackwardPassResult tours_from_every_square(const Sweep& sweep, const FrontierOptions& forward,
                                           const KeptGenerations& kept, const BigCount& paths,
                                           StopControl& stop, BackwardProgress* progress) {
  const int n = sweep.size();
  const int last = pass_last_step(sweep);
  if (!kept.whole(n) || !kept.has(last))
    throw std::logic_error("backward pass: generations missing");
  const int limbs = pass_limbs(kept, paths);
  // Classes of the generations held; with columns only, each stands for its column's.
  std::uint64_t classes = 0;
  for (int k = last; k < n; ++k) {
    if (!kept.has(k)) continue;
    const std::uint64_t size = classes_in(kept.at(k));
    classes += kept.columns_only() ? size * static_cast<std::uint64_t>(sweep.width()) : size;
  }
  if (progress != nullptr) {
    progress->classes_total = classes;
    progress->steps_total = n - last;
  }
  const StepRules rules =
      make_step_rules(sweep, FrontierTarget{false, std::nullopt}, forward.fold_mirror);
  // On the sweep's threads, as the sweep itself runs (frontier_counter.cpp): outside an arena
  // the pass took every core whatever --threads said.
  const int threads = std::max(forward.threads, 1);
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  check_threads_can_start(
      threads, tbb::global_control::active_value(tbb::global_control::thread_stack_size));
  tbb::task_arena arena(threads);
  return arena.execute([&]() -> BackwardPassResult {
    if (limbs <= 1) return Pass<1>(sweep, forward, rules, stop, progress).run(kept, paths);
    if (limbs <= 2) return Pass<2>(sweep, forward, rules, stop, progress).run(kept, paths);
    if (limbs <= 4) return Pass<4>(sweep, forward, rules, stop, progress).run(kept, paths);
    if (limbs <= 8) return Pass<8>(sweep, forward, rules, stop, progress).run(kept, paths);
    return Pass<16>(sweep, forward, rules, stop, progress).run(kept, paths);
  });
}

}  // namespace knightstour
