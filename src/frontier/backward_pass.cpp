#include "knightstour/frontier/backward_pass.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "knightstour/base/huge_chunks.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/choice_plans.hpp"
#include "knightstour/frontier/class_hash.hpp"
#include "knightstour/frontier/mirror.hpp"
#include "knightstour/frontier/step_rule.hpp"
#include "knightstour/frontier/transition.hpp"

namespace knightstour {

bool KeptGenerations::keep(const FrontierState& state) {
  if (gave_up_) return false;
  const int k = state.next_step;
  const std::uint64_t bytes = memory_bytes_of(state.classes);
  limbs_ = std::max(limbs_, limbs_of(state.classes));
  if (!columns_only_ && bytes_ + bytes > limit_) {
    // From now on only the columns' first generations; those kept so far are dropped.
    columns_only_ = true;
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      if (held_[i] == 0 || column_start(static_cast<int>(i))) continue;
      bytes_ -= memory_bytes_of(kept_[i]);
      kept_[i] = AnyGeneration{};
      held_[i] = 0;
    }
  }
  const bool wanted = !columns_only_ || column_start(k);
  if (in_files(state.classes) || k != static_cast<int>(held_.size()) ||
      (wanted && bytes_ + bytes > limit_)) {
    gave_up_ = true;
    std::vector<AnyGeneration>().swap(kept_);
    std::vector<char>().swap(held_);
    bytes_ = 0;
    return false;
  }
  held_.push_back(wanted ? 1 : 0);
  kept_.push_back(wanted ? state.classes : AnyGeneration{});
  if (wanted) bytes_ += bytes;
  return true;
}

namespace {

constexpr std::size_t kChunk = 4096;  // classes between two looks at the stop control

// The completions of one generation's classes by key: open addressing, linear probing, at
// most half full. A slot holds the key and its completions side by side, so that a lookup
// touches one place, which the pass prefetches. Filled by every thread at once: a slot's key
// is claimed by compare-and-swap (the keys of a generation are distinct), and read only after
// the parallel loop that fills it has ended. A table of 2 MiB or more lies in huge pages
// (huge_chunks.hpp): its accesses are random, and with 4 KiB pages each one missed the TLB
// too.
template <int K>
class CompletionTable {
 public:
  CompletionTable() : CompletionTable(0) {}
  explicit CompletionTable(std::uint64_t classes) {
    std::size_t slots = 1;
    while (slots < 2 * classes) slots *= 2;
    mask_ = slots - 1;
    bytes_ = slots * kWords * 8;
    if (bytes_ >= kHugePageBytes)
      bytes_ = (bytes_ + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    words_ = static_cast<std::uint64_t*>(allocate_chunk(bytes_));
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, slots, std::size_t{1} << 16),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i != r.end(); ++i)
                          words_[i * kWords] = kNoClass;
                      });
  }
  CompletionTable(CompletionTable&& other) noexcept
      : words_(std::exchange(other.words_, nullptr)), bytes_(other.bytes_), mask_(other.mask_) {}
  CompletionTable& operator=(CompletionTable&& other) noexcept {
    std::swap(words_, other.words_);
    std::swap(bytes_, other.bytes_);
    std::swap(mask_, other.mask_);
    return *this;
  }
  CompletionTable(const CompletionTable&) = delete;
  CompletionTable& operator=(const CompletionTable&) = delete;
  ~CompletionTable() { free_chunk(words_, bytes_); }

  void insert(std::uint64_t key, const WideCount<K>& completions) {
    for (std::size_t h = class_hash(key) & mask_;; h = (h + 1) & mask_) {
      std::uint64_t expected = kNoClass;
      if (std::atomic_ref<std::uint64_t>(words_[h * kWords])
              .compare_exchange_strong(expected, key, std::memory_order_relaxed)) {
        std::copy_n(completions.limb.data(), K, &words_[h * kWords + 1]);
        return;
      }
    }
  }
  void prefetch(std::uint64_t key) const {
    __builtin_prefetch(&words_[(class_hash(key) & mask_) * kWords]);
  }
  // False for a key the generation does not hold.
  bool find(std::uint64_t key, WideCount<K>& completions) const {
    for (std::size_t h = class_hash(key) & mask_;; h = (h + 1) & mask_) {
      const std::uint64_t* slot = &words_[h * kWords];
      if (slot[0] == key) {
        std::copy_n(slot + 1, K, completions.limb.data());
        return true;
      }
      if (slot[0] == kNoClass) return false;
    }
  }

 private:
  static constexpr std::size_t kWords = 1 + K;
  std::uint64_t* words_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t mask_ = 0;
};

void broken(const char* what) { throw std::logic_error(std::string("backward pass: ") + what); }

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
        pair_ends_(static_cast<std::size_t>(sweep.size())) {}

  BackwardPassResult run(const KeptGenerations& kept, const BigCount& paths) {
    const int n = sweep_.size();
    BackwardPassResult out;
    for (int k = n - 1; k >= 0; --k) {
      const AnyGeneration* generation = generation_at(k, kept, out);
      if (generation == nullptr) return {};  // stopped while recomputing a column
      const bool done = std::visit(
          [&](const auto& g) {
            constexpr int L = std::decay_t<decltype(g)>::kLimbs;
            if constexpr (L > K) {
              broken("a generation wider than the pass");
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
    if (!(first_paths_ == paths.to_wide<K>())) broken("its paths differ from the sweep's");
    // The last square's ends: twice the paths, less every other square's.
    WideCount<K> last = (paths * 2).to_wide<K>();
    for (const auto& e : pair_ends_) {
      if (last.subtract(e)) broken("more ends than twice the paths");
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
    std::uint32_t of;  // the class, in the batch
    bool took_t;       // it gave T an edge: square k is an end
  };
  // A thread's own, kept from step to step (its plans and successor buffer).
  struct Local {
    WideCount<K> ends;
    WideCount<K> paths;  // step 0: sum of n(X) c(X)
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
    return bit_kernel_ == BitKernel::bmi2 ? step_by<L, BitKernel::bmi2>(k, g)
                                          : step_by<L, BitKernel::portable>(k, g);
  }

  template <int L, BitKernel B>
  bool step_by(int k, const Generation<L>& g) {
    const StepRule& rule = rules_.steps[static_cast<std::size_t>(k)];
    CompletionTable<K> here = k > 0 ? CompletionTable<K>(g.size()) : CompletionTable<K>();
    for (Local& local : locals_) local.ends = local.paths = WideCount<K>{};
    std::atomic<bool> stopped{false};
    tbb::parallel_for(std::size_t{0}, g.parts.size(), [&](std::size_t p) {
      const auto& part = g.parts[p];
      Local& local = locals_.local();
      for (std::size_t b = 0; b < part.keys.size(); b += kBatch) {
        if (b % kChunk == 0 && (stopped.load(std::memory_order_relaxed) || stop_.poll())) {
          stopped = true;
          return;
        }
        const std::size_t e = std::min(part.keys.size(), b + kBatch);
        WideCount<K> c[kBatch], c_t[kBatch];  // completions; of them, through T
        local.successors.clear();
        if (k > 0) {
          for (std::size_t i = b; i < e; ++i) here.prefetch(part.keys[i]);
        }
        for (std::size_t i = b; i < e; ++i) {
          const std::uint64_t key = part.keys[i];
          const int t = t_edges(key);
          const auto of = static_cast<std::uint32_t>(i - b);
          expand_planned<B>(
              rules_, rule, key, local.plans.template of<B>(rules_, rule, key),
              [&](std::uint64_t y, std::uint64_t) {
                if (rule.fold_mirror) y = mirror_canonical(y, rules_.mirror);
                next_.prefetch(y);
                local.successors.push_back({y, of, t_edges(y) > t});
              },
              [&] { local.overflow |= c[of].add(one()); });
        }
        for (const Successor& y : local.successors) {
          WideCount<K> v;
          if (!next_.find(y.key, v)) continue;  // a class the sweep found dead
          local.overflow |= c[y.of].add(v);
          if (y.took_t) local.overflow |= c_t[y.of].add(v);
        }
        for (std::size_t i = b; i < e; ++i) {
          const WideCount<K> n = part.counts[i].template widened<K>();
          if (k > 0) here.insert(part.keys[i], c[i - b]);
          if (!c_t[i - b].is_zero()) {
            WideCount<K> ends = n;
            local.overflow |= ends.multiply(c_t[i - b]);
            local.overflow |= local.ends.add(ends);
          }
          if (k == 0) {
            WideCount<K> paths = n;
            local.overflow |= paths.multiply(c[i - b]);
            local.overflow |= local.paths.add(paths);
          }
        }
      }
    });
    if (stopped) return false;
    WideCount<K>& ends = pair_ends_[static_cast<std::size_t>(pair_of(k))];
    for (const Local& local : locals_) {
      if (local.overflow || ends.add(local.ends) || first_paths_.add(local.paths))
        broken("a count overflowed");
    }
    next_ = std::move(here);
    return true;
  }

  static WideCount<K> one() {
    WideCount<K> w;
    w.limb[0] = 1;
    return w;
  }

  const Sweep& sweep_;
  const FrontierOptions& forward_;
  const StepRules& rules_;
  StopControl& stop_;
  BackwardProgress* progress_;
  std::vector<WideCount<K>> pair_ends_;  // by the pair's smaller sweep vertex
  WideCount<K> first_paths_;             // sum of n(X) c(X) over generation 0
  CompletionTable<K> next_;              // generation k + 1's completions
  std::vector<AnyGeneration> column_;    // generations column_from_ + 1 ... recomputed
  int column_from_ = -1;
  const BitKernel bit_kernel_ = chosen_bit_kernel();
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
  const auto k = static_cast<std::uint64_t>(pass_limbs(kept, paths));
  const std::uint64_t tables = 2 * (4 * peak_classes) * 8 * (1 + k);
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
  if (!kept.whole(n)) throw std::logic_error("backward pass: generations missing");
  const int limbs = pass_limbs(kept, paths);
  // Classes of the generations held; with columns only, each stands for its column's.
  std::uint64_t classes = 0;
  for (int k = 0; k < n; ++k) {
    if (!kept.has(k)) continue;
    const std::uint64_t size = classes_in(kept.at(k));
    classes += kept.columns_only() ? size * static_cast<std::uint64_t>(sweep.width()) : size;
  }
  if (progress != nullptr) {
    progress->classes_total = classes;
    progress->steps_total = n;
  }
  const StepRules rules =
      make_step_rules(sweep, FrontierTarget{false, std::nullopt}, forward.fold_mirror);
  if (limbs <= 1) return Pass<1>(sweep, forward, rules, stop, progress).run(kept, paths);
  if (limbs <= 2) return Pass<2>(sweep, forward, rules, stop, progress).run(kept, paths);
  if (limbs <= 4) return Pass<4>(sweep, forward, rules, stop, progress).run(kept, paths);
  if (limbs <= 8) return Pass<8>(sweep, forward, rules, stop, progress).run(kept, paths);
  return Pass<16>(sweep, forward, rules, stop, progress).run(kept, paths);
}

}  // namespace knightstour
