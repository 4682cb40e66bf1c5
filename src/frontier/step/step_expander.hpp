#pragma once

// A step's expansion: every class of the generation it reads expanded by the step's rule,
// each successor of the parts asked for kept by the thread that made it (Expansion).

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/mirror.hpp"
#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/progress/step_progress.hpp"
#include "frontier/step/choice_plans.hpp"
#include "frontier/step/rank_exchange.hpp"
#include "frontier/step/step_expansion.hpp"
#include "frontier/step/step_plan.hpp"
#include "frontier/store/compact_classes.hpp"
#include "frontier/store/generation.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour::frontier_detail {

// Whether a step winds down: stopped (a signal, a time limit) or out of memory. Raised by
// any thread; threads look once kPollEvery classes or once a record, so nothing is shared
// per class.
class StepAbort {
 public:
  explicit StepAbort(StopControl& stop) : stop_(stop) {}
  // False once the step winds down; asks the stop control, and raises the abort when it says
  // stop.
  bool poll() {
    if (raised()) return false;
    if (stop_.poll()) {
      raise();
      return false;
    }
    return true;
  }
  bool raised() const { return flag_.load(std::memory_order_relaxed); }
  void raise() { flag_.store(true, std::memory_order_relaxed); }
  void clear() { flag_.store(false, std::memory_order_relaxed); }

 private:
  StopControl& stop_;
  std::atomic<bool> flag_{false};
};

// Expands the classes of `current` by step k's rule into the threads' Expansions. A
// successor's part of the next generation is the top bits of its route hash (class_hash.hpp).
// With several ranks, a successor another rank owns goes to its outbox, and the outboxes
// are exchanged after every round of kRoundClasses (rank_exchange.hpp).
template <int K>
class StepExpander {
 public:
  using Expansions = tbb::enumerable_thread_specific<Expansion<K>>;

  // `ranks`: nullptr when this process counts alone.
  StepExpander(const StepRules& rules, int k, Generation<K>& current, BitKernel kernel,
               Ranks* ranks, StepAbort& abort, StepProgress& progress)
      : rules_(rules),
        rule_(rules.steps[static_cast<std::size_t>(k)]),
        current_(current),
        bit_kernel_(kernel),
        ranks_(ranks),
        rank_count_(ranks != nullptr ? ranks->size() : 1),
        me_(ranks != nullptr ? ranks->rank() : 0),
        abort_(abort),
        progress_(progress) {}

  // The next generation has 2^bits parts.
  void set_part_bits(int bits) { bits_ = bits; }
  std::size_t part_of(std::uint64_t key) const {
    return part_at(route_hash(key, rules_.slots), bits_);
  }

  // Expands every class of parts [from, to) of `current` (every part: to past the last) into
  // the threads' expansions, keeping the successors of parts [lo, hi) of the next; raises the
  // abort when stopped or out of memory.
  void expand(Expansions& expansions, std::size_t lo, std::size_t hi, std::size_t from = 0,
              std::size_t to = SIZE_MAX) {
    if (ranks_ != nullptr) {
      expand_in_rounds(expansions, lo, hi);
      return;
    }
    to = std::min(to, current_.parts.size());
    tbb::parallel_for(from, to, [&](std::size_t part) {
      // Whole blocks, each decoded once: a part in a file is read a block (one pread) at a
      // time, one in memory about kPollEvery classes at a time.
      const auto& in = current_.parts[part];
      constexpr std::size_t kBlock = CompactClasses::kBlockClasses;
      const std::size_t grain = in.in_file() ? 1 : std::max<std::size_t>(1, kPollEvery / kBlock);
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.blocks(), grain),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          if (abort_.poll())
                            expand_classes<false>(expansions, part, range.begin() * kBlock,
                                                  std::min(in.size(), range.end() * kBlock), lo,
                                                  hi);
                        });
    });
  }

 private:
  // Expands classes [begin, end) of part `part` of `current`, keeping the successors of
  // parts [lo, hi), with the kernel that packs keys by B. A template, so that a process
  // counting alone pays nothing for the ranks.
  template <bool Distributed, BitKernel B>
  void expand_classes_by(Expansions& expansions, std::size_t part, std::size_t begin,
                         std::size_t end, std::size_t lo, std::size_t hi) {
    // Locals, not members: a store through the blocks may alias a member, so the compiler
    // would have to reload a member after every successor kept.
    const StepRules& rules = rules_;
    const StepRule& rule = rule_;
    const int bits = bits_;
    [[maybe_unused]] const int rank_count = rank_count_, me = me_;
    [[maybe_unused]] const std::uint32_t class_mask = (1u << rules.slots) - 1;
    const bool fold = rule.fold_mirror;
    Expansion<K>& e = expansions.local();
    bool full = false;
    current_.parts[part].template for_each_chunk<K>(
        begin, end, e.read,
        [&](const std::uint64_t* keys, const WideCount<K>* counts, std::size_t n) {
          for (std::size_t i = 0; i != n && !full; ++i) {
            const WideCount<K>& count = counts[i];
            expand_planned<B>(
                rules, rule, keys[i], e.plans.template of<B>(rules, rule, keys[i]),
                [&](std::uint64_t key, std::uint64_t hash) {
                  if (fold) {
                    std::uint64_t pattern = type_pattern(key, rules.slots);
                    if (keep_mirror_canonical<B>(key, pattern, rules.mirror))
                      hash = class_hash(pattern);
                  }
                  // Debug builds check every successor (I1, I3).
                  assert(class_invariants_hold(key, rules.slots, rule.no_future & class_mask));
                  const std::size_t p = part_at(hash, bits);
                  if (p < lo || p >= hi) return;
                  if constexpr (Distributed) {
                    const int owner = owner_rank(hash, rank_count);
                    if (owner != me) {
                      full = !e.outbox.add(static_cast<std::size_t>(owner), key, count) || full;
                      return;
                    }
                  }
                  full = !e.keep(p, lo, key, count) || full;
                },
                [&] {
                  if (e.closed.add(count)) e.overflow = true;
                });
          }
        });
    if (full) abort_.raise();
    progress_.expanded.fetch_add(end - begin, std::memory_order_relaxed);
  }
  template <bool Distributed>
  void expand_classes(Expansions& expansions, std::size_t part, std::size_t begin, std::size_t end,
                      std::size_t lo, std::size_t hi) {
    if (bit_kernel_ == BitKernel::bmi2) {
      expand_classes_by<Distributed, BitKernel::bmi2>(expansions, part, begin, end, lo, hi);
    } else {
      expand_classes_by<Distributed, BitKernel::portable>(expansions, part, begin, end, lo, hi);
    }
  }

  // expand() over several ranks: the classes of `current`, numbered across its parts,
  // a round of kRoundClasses at a time, each round ended by an exchange of the outboxes.
  void expand_in_rounds(Expansions& expansions, std::size_t lo, std::size_t hi) {
    std::vector<std::uint64_t> first{0};  // first[p]: number of part p's first class
    for (const auto& in : current_.parts) first.push_back(first.back() + in.size());
    const std::uint64_t mine = first.back();
    const std::uint64_t rounds = ranks_->max((mine + kRoundClasses - 1) / kRoundClasses);
    for (std::uint64_t round = 0; round < rounds; ++round) {
      const std::uint64_t a = std::min(mine, round * kRoundClasses);
      const std::uint64_t b = std::min(mine, a + kRoundClasses);
      tbb::parallel_for(
          tbb::blocked_range<std::uint64_t>(a, b, kPollEvery),
          [&](const tbb::blocked_range<std::uint64_t>& range) {
            if (!abort_.poll()) return;
            std::uint64_t i = range.begin();
            auto p = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), i) -
                                              first.begin() - 1);
            while (i < range.end()) {
              const std::uint64_t end = std::min(range.end(), first[p + 1]);
              expand_classes<true>(expansions, p, i - first[p], end - first[p], lo, hi);
              i = end;
              ++p;
            }
          });
      if (ranks_->any_bits(abort_.raised() ? kAborted : 0) != 0) {
        abort_.raise();
        break;
      }
      const auto sent = exchange_outboxes<K>(
          *ranks_, expansions, [this](std::uint64_t key) { return part_of(key); }, lo,
          rules_.slots);
      if (!sent) {
        abort_.raise();
      } else {
        progress_.exchanged.fetch_add(*sent, std::memory_order_relaxed);
      }
    }
  }

  const StepRules& rules_;
  const StepRule& rule_;
  Generation<K>& current_;
  const BitKernel bit_kernel_;
  Ranks* const ranks_;  // nullptr: this process counts alone
  const int rank_count_;
  const int me_;
  StepAbort& abort_;
  StepProgress& progress_;
  int bits_ = 0;
};

}  // namespace knightstour::frontier_detail
