#pragma once

// One step of a frontier sweep: every class of a generation expanded into the next.

#include <malloc.h>
#include <spdlog/spdlog.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/aggregation_table.hpp"
#include "knightstour/frontier/generation.hpp"
#include "knightstour/frontier/generation_store.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/successor_blocks.hpp"
#include "knightstour/frontier/successor_files.hpp"
#include "knightstour/frontier/transition.hpp"
#include "sweep_live.hpp"

namespace knightstour::frontier_detail {

// Classes between two looks at the stop control.
inline constexpr std::size_t kPollEvery = 4096;

// Parts for a step expected to produce about `successors`: about 2^14 successors a part, so
// that a part's aggregation table (3/2 slot a successor) stays in the cache; at most 2^14
// parts (each thread keeps a block open per part: 8 MiB of them at the most).
inline constexpr int kPartSuccessorBits = 12;
inline constexpr int kMaxPartBits = 14;
inline int part_bits(std::uint64_t successors) {
  int bits = 0;
  while (bits < kMaxPartBits && (std::uint64_t{1} << (bits + kPartSuccessorBits)) < successors)
    ++bits;
  return bits;
}

// Hands memory freed by tables and spilled parts back to the system. glibc keeps freed
// chunks of its per-thread heaps resident; without this, resident memory on 8x8 grew to
// the budget plus several GiB of freed tables and nearly exhausted the machine.
inline void return_freed_memory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

// Blocks and tables freed past this many bytes go back to the system at once.
inline constexpr std::uint64_t kTrimAfterBytes = std::uint64_t{64} << 20;

enum class StepEnd { done, overflow, stopped };

// What a step expects to hold, to plan its passes: every successor until its part is
// aggregated, and the next generation. The sweep's guess of the successors (from the last
// step's branching) can be off 2-3x, since steps alternate between squares where most paths
// branch and squares where many die; when the guess says the step may not fit, run_step
// counts them on a sample instead (sampled_successors). Distinct classes per successor vary
// less between steps of the same row of the sweep (results/frontier/pass-planning.md).
struct StepForecast {
  std::uint64_t successors = 0;
  double classes_per_successor = 1;
};

template <int K>
std::uint64_t step_bytes(std::uint64_t successors, double classes_per_successor) {
  // Blocks hold a successor in 8 + 8K bytes, plus a header and the open blocks' slack.
  const std::uint64_t per_successor = (8 + 8 * K) * 9 / 8;
  const auto classes =
      static_cast<std::uint64_t>(static_cast<double>(successors) * classes_per_successor);
  return successors * per_successor + classes * Generation<K>::kClassBytes;
}

// The successors of `current` at step `rule`, counted on every kSampleEvery-th class of
// each part and scaled up: a 1/64 of the step's expansions, no memory.
inline constexpr std::size_t kSampleEvery = 64;
template <int K>
std::uint64_t sampled_successors(const StepRules& rules, const StepRule& rule,
                                 const Generation<K>& current) {
  std::atomic<std::uint64_t> made{0};
  std::atomic<std::uint64_t> sampled{0};
  tbb::parallel_for(std::size_t{0}, current.parts.size(), [&](std::size_t part) {
    const auto& in = current.parts[part];
    const std::uint64_t* keys = in.key_data();
    std::uint64_t n = 0;
    std::uint64_t classes = 0;
    for (std::size_t i = part % kSampleEvery; i < in.size(); i += kSampleEvery, ++classes) {
      expand(
          rules, rule, keys[i], [&](std::uint64_t) { ++n; }, [] {});
    }
    made.fetch_add(n, std::memory_order_relaxed);
    sampled.fetch_add(classes, std::memory_order_relaxed);
  });
  if (sampled.load() == 0) return 0;
  return static_cast<std::uint64_t>(static_cast<double>(made.load()) *
                                    static_cast<double>(current.size()) /
                                    static_cast<double>(sampled.load()));
}

// The share of the budget's room a pass plans to fill: the rest absorbs the error of the
// classes-per-successor guess (a pass that still runs out is redone in two halves).
inline constexpr double kPassFill = 0.85;

// Classes a rank expands between two exchanges of successors when several ranks count
// (Ranks): bounds what a rank sends and receives at once (a few successors a class, 16 to
// 72 bytes each: tens of MiB) whatever the size of the generation.
inline constexpr std::uint64_t kRoundClasses = std::uint64_t{1} << 18;

// What the ranks agree on after a pass (or: after a round of an exchange, kAborted).
inline constexpr std::uint32_t kAborted = 1, kStopped = 2, kOverflow = 4, kOutOfMemory = 8;

// The sum of every rank's `mine` (the same on every rank); `wide` in: this rank's sum
// already overflowed; out: the total does not fit K limbs.
template <int K>
WideCount<K> sum_over_ranks(Ranks& ranks, const WideCount<K>& mine, bool& wide) {
  std::vector<std::byte> bytes(sizeof(mine) + 1);
  std::memcpy(bytes.data(), &mine, sizeof(mine));
  bytes.back() = std::byte{wide ? std::uint8_t{1} : std::uint8_t{0}};
  const std::vector<std::byte> all = ranks.all_gather(bytes);
  WideCount<K> total;
  wide = false;
  for (std::size_t at = 0; at + bytes.size() <= all.size(); at += bytes.size()) {
    WideCount<K> one;
    std::memcpy(&one, all.data() + at, sizeof(one));
    wide = total.add(one) || all[at + sizeof(one)] != std::byte{0} || wide;
  }
  return total;
}

// What one thread of a pass holds: its successors, one block list per part of the pass's
// range (or, when the step writes its successors once to range files, a buffer per range),
// and (several ranks) its outbox, one block list per rank.
template <int K>
struct Expansion {
  Expansion(std::size_t parts, int rank_count, MemoryBudget& budget)
      : blocks(parts, budget), outbox(rank_count > 1 ? rank_count : 0, budget) {}
  // Write-once: the successors of parts [0, in_memory) stay in blocks, the rest go to files.
  Expansion(SuccessorFiles& files, const std::vector<std::uint32_t>& range_of,
            std::size_t buffer_entries, std::size_t in_memory, int rank_count, MemoryBudget& budget)
      : blocks(in_memory, budget),
        outbox(rank_count > 1 ? rank_count : 0, budget),
        in_memory_parts(in_memory) {
    writer.emplace(files, range_of, buffer_entries, budget);
  }
  // Keeps a successor of part p (the pass's first part: lo); false when out of memory.
  bool keep(std::size_t p, std::size_t lo, std::uint64_t key, const WideCount<K>& count) {
    if (writer && p >= in_memory_parts) {
      writer->add(p, key, count);
      return true;
    }
    return blocks.add(p - lo, key, count);
  }
  SuccessorBlocks<K> blocks;
  SuccessorBlocks<K> outbox;                 // successors other ranks own, by rank
  std::optional<SuccessorWriter<K>> writer;  // write-once: successors to range files
  std::size_t in_memory_parts = 0;           // write-once: parts kept in blocks all the same
  WideCount<K> closed;                       // cycles completed (last step)
  bool overflow = false;
};

// After a round of a pass over several ranks: sends every thread's outbox to the ranks that
// own its successors, in rank order (Ranks::all_to_all), and keeps what this rank received
// in the threads' blocks or range files (`part_of` a key: its part; `lo`: the pass's first
// part). Returns the bytes sent, or nothing when a block could not grow within the budget.
template <int K, class PartOf>
std::optional<std::uint64_t> exchange_outboxes(
    Ranks& ranks, tbb::enumerable_thread_specific<Expansion<K>>& expansions, const PartOf& part_of,
    std::size_t lo) {
  using Entry = typename SuccessorBlocks<K>::Entry;
  const auto rank_count = static_cast<std::size_t>(ranks.size());
  std::vector<std::uint64_t> offset(rank_count + 1, 0);
  for (std::size_t d = 0; d < rank_count; ++d) {
    std::uint64_t n = 0;
    for (auto& e : expansions) n += e.outbox.successors(d);
    offset[d + 1] = offset[d] + n * sizeof(Entry);
  }
  std::vector<std::byte> send(offset.back());
  std::byte* at = send.data();
  for (std::size_t d = 0; d < rank_count; ++d) {
    for (auto& e : expansions) {
      e.outbox.for_each(d, [&](const Entry& x) {
        std::memcpy(at, &x, sizeof(Entry));
        at += sizeof(Entry);
      });
    }
  }
  for (auto& e : expansions) e.outbox.clear();
  const std::vector<std::byte> received = ranks.all_to_all(send, offset);
  std::atomic<bool> full{false};
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, received.size() / sizeof(Entry), kPollEvery),
      [&](const tbb::blocked_range<std::size_t>& range) {
        Expansion<K>& e = expansions.local();
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          Entry x;
          std::memcpy(&x, received.data() + i * sizeof(Entry), sizeof(Entry));
          const std::size_t p = part_of(x.key);
          assert(p >= lo && owner_rank(class_hash(x.key), ranks.size()) == ranks.rank());
          if (!e.keep(p, lo, x.key, x.count)) {
            full = true;
            return;
          }
        }
      });
  if (full.load()) return std::nullopt;
  return send.size();
}

// Bytes of each of a thread's `buffers` (one per range file when writing, one when
// reading): a MiB, for sequential I/O, unless all threads' buffers would then hold more
// than a sixteenth of the room (the budget is charged for them).
inline std::uint64_t io_buffer_bytes(std::uint64_t room, std::size_t buffers) {
  const auto threads = static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency());
  const std::uint64_t share = room / (16 * threads * std::max<std::size_t>(buffers, 1));
  return std::clamp<std::uint64_t>(share, std::uint64_t{4} << 10, std::uint64_t{1} << 20);
}

// One step: expands every class of `current` into `next`, adding the cycles completed
// (last step only) to `closed` and the successors produced to `successors`.
//
// Two phases, neither with a lock: every thread expands classes of `current` and appends
// their successors to its own blocks, one open block per part of `next` (SuccessorBlocks);
// then each part of `next` is built by one task that aggregates what all threads wrote for
// it (AggregationTable).
//
// When the step may not fit the memory budget, it is split into ranges of parts, built one
// after another, each range's classes written to a spill file before the next starts (the
// current generation then goes to a spill file too). The generation is expanded once: the
// first range's successors stay in blocks, every other successor goes to its range's file
// (SuccessorFiles); each later range is read back into blocks and aggregated. A range that
// still runs out of memory is redone as two halves read from its file. A step planned in one
// range that runs out is redone in two by expanding again. Without a spill area the step
// stops at the budget.
//
// With several ranks (`ranks`; nullptr: this process alone) each holds the classes it owns
// (owner_rank). The expansion runs in rounds of kRoundClasses; a thread puts the successors
// another rank owns in its outbox, one block list per rank, and after each round the ranks
// exchange their outboxes (Ranks::all_to_all) and keep what they received as their own
// successors; the rest is the same on every rank, each with its own range files. Parts,
// ranges and rounds are agreed from the ranks' maxima, and every pass ends with the ranks
// agreeing on its outcome, so that all of them redo, spill, stop or widen together.
template <int K>
StepEnd run_step(const StepRules& rules, int k, Generation<K>& current, Generation<K>& next,
                 const StepForecast& forecast, WideCount<K>& closed, std::uint64_t& successors,
                 MemoryBudget& budget, SpillArea& spill, StopControl& stop, Live& live,
                 Ranks* ranks = nullptr) {
  const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
  [[maybe_unused]] const std::uint32_t class_mask = (1u << rules.slots) - 1;
  ranks = several_ranks(ranks);
  const bool distributed = ranks != nullptr;
  const int rank_count = distributed ? ranks->size() : 1;
  const int me = distributed ? ranks->rank() : 0;
  const int bits = part_bits(distributed ? ranks->max(forecast.successors) : forecast.successors);
  const std::size_t parts = std::size_t{1} << bits;
  const int shift = 64 - bits;
  auto part_of = [&](std::uint64_t key) -> std::size_t {
    return bits == 0 ? 0 : static_cast<std::size_t>(class_hash(key) >> shift);
  };

  bool spilling = false;
  std::optional<PartSpiller<K>> out;
  auto start_spilling = [&] {
    if (spilling) return;
    spilling = true;
    spill_parts(current, spill, budget);  // frees the budget the current generation held
    out.emplace(spill);
    for (std::size_t p = 0; p < next.parts.size(); ++p) out->add(next.parts[p], p, budget);
  };
  next.parts.assign(parts, {});
  // A step that does not finish leaves `next` empty, with its budget returned.
  auto abandon = [&](StepEnd end) {
    budget.release(next.memory_bytes());
    next = {};
    return end;
  };
  // Ranges: as many as the step needs, with room to spare.
  std::size_t passes = 1;
  if (spill.enabled()) {
    std::uint64_t need = step_bytes<K>(forecast.successors, forecast.classes_per_successor);
    auto fill = [&] { return static_cast<double>(budget.room()) * kPassFill; };
    if (static_cast<double>(need) > fill() / 2) {  // worth counting
      need =
          step_bytes<K>(sampled_successors(rules, rule, current), forecast.classes_per_successor);
    }
    if (static_cast<double>(need) > fill()) {
      start_spilling();  // frees what the current generation held: room grows
      passes = static_cast<std::size_t>(std::min<std::uint64_t>(
          parts, static_cast<std::uint64_t>(std::ceil(static_cast<double>(need) / fill()))));
    }
    spdlog::debug("step {}: {:.0f} MB expected, {:.0f} MB of room, {} ranges", k + 1,
                  static_cast<double>(need) / 1e6, static_cast<double>(budget.room()) / 1e6,
                  passes);
  }
  if (distributed) passes = static_cast<std::size_t>(ranks->max(passes));
  // A range of parts to build, and the range file holding its successors (write-once).
  struct Range {
    std::size_t lo, hi, file;
  };
  std::deque<Range> ranges;
  for (std::size_t i = 0; i < passes; ++i)
    ranges.push_back({parts * i / passes, parts * (i + 1) / passes, i});
  live.passes = static_cast<int>(passes);
  live.pass = 0;
  bool closed_taken = false;
  successors = 0;

  using Expansion = frontier_detail::Expansion<K>;
  using Expansions = tbb::enumerable_thread_specific<Expansion>;
  tbb::enumerable_thread_specific<AggregationTable<K>> tables;
  std::atomic<bool> abort{false};
  // What a pass ended with, agreed over the ranks.
  auto agreed_outcome = [&](bool overflow) {
    std::uint32_t outcome = (abort.load() ? kAborted : 0) | (stop.stopped() ? kStopped : 0) |
                            (overflow ? kOverflow : 0) | (budget.exceeded() ? kOutOfMemory : 0);
    return distributed ? ranks->any_bits(outcome) : outcome;
  };
  auto poll = [&] {
    if (abort.load(std::memory_order_relaxed)) return false;
    if (stop.poll()) {
      abort = true;
      return false;
    }
    return true;
  };

  // Expands every class of `current` into the threads' expansions, keeping the successors of
  // parts [lo, hi); sets `abort` when stopped or out of memory.
  auto expand_current = [&](Expansions& expansions, std::size_t lo, std::size_t hi) {
    // Expands classes [begin, end) of part `part` of `current`. A template, so that a
    // process counting alone pays nothing for the ranks.
    auto expand_classes = [&]<bool Distributed>(std::size_t part, std::size_t begin,
                                                std::size_t end) {
      const auto& in = current.parts[part];
      const std::uint64_t* keys = in.key_data();
      const WideCount<K>* counts = in.count_data();
      Expansion& e = expansions.local();
      bool full = false;
      for (std::size_t i = begin; i != end && !full; ++i) {
        const WideCount<K>& count = counts[i];
        expand(
            rules, rule, keys[i],
            [&](std::uint64_t key) {
              // Debug builds check every successor (I1, I3).
              assert(class_invariants_hold(key, rules.slots, rule.no_future & class_mask));
              const std::uint64_t hash = class_hash(key);
              const std::size_t p = bits == 0 ? 0 : static_cast<std::size_t>(hash >> shift);
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
      if (full) abort = true;
      live.expanded.fetch_add(end - begin, std::memory_order_relaxed);
    };

    if (!distributed) {
      tbb::parallel_for(std::size_t{0}, current.parts.size(), [&](std::size_t part) {
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, current.parts[part].size(), kPollEvery),
            [&](const tbb::blocked_range<std::size_t>& range) {
              if (poll())
                expand_classes.template operator()<false>(part, range.begin(), range.end());
            });
      });
      return;
    }
    // The classes of `current` numbered across its parts, expanded a round at a time.
    std::vector<std::uint64_t> first{0};  // first[p]: number of part p's first class
    for (const auto& in : current.parts) first.push_back(first.back() + in.size());
    const std::uint64_t mine = first.back();
    const std::uint64_t rounds = ranks->max((mine + kRoundClasses - 1) / kRoundClasses);
    for (std::uint64_t round = 0; round < rounds; ++round) {
      const std::uint64_t a = std::min(mine, round * kRoundClasses);
      const std::uint64_t b = std::min(mine, a + kRoundClasses);
      tbb::parallel_for(
          tbb::blocked_range<std::uint64_t>(a, b, kPollEvery),
          [&](const tbb::blocked_range<std::uint64_t>& range) {
            if (!poll()) return;
            std::uint64_t i = range.begin();
            auto p = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), i) -
                                              first.begin() - 1);
            while (i < range.end()) {
              const std::uint64_t end = std::min(range.end(), first[p + 1]);
              expand_classes.template operator()<true>(p, i - first[p], end - first[p]);
              i = end;
              ++p;
            }
          });
      if (ranks->any_bits(abort.load() ? kAborted : 0) != 0) {
        abort = true;
        break;
      }
      const auto sent = exchange_outboxes<K>(*ranks, expansions, part_of, lo);
      if (!sent) {
        abort = true;
      } else {
        live.exchanged.fetch_add(*sent, std::memory_order_relaxed);
      }
    }
  };

  // Write-once: a step in several ranges expands `current` once, the successors of the first
  // range into memory (it is built first, from there) and every other successor to its
  // range's file; the other ranges are then built from their files. When the first range
  // does not fit beside the expansion after all, the expansion is redone with every range in
  // a file.
  std::optional<SuccessorFiles> files;
  std::vector<std::uint32_t> range_of;      // the range of each part
  std::vector<int> unread;                  // ranges still to be built from each file
  std::size_t buffer_entries = 0;           // of each range's buffer in a thread's writer
  std::unique_ptr<Expansions> first_range;  // the first range's successors, when in memory
  if (passes > 1) {
    range_of.resize(parts);
    for (const Range& r : ranges) {
      for (std::size_t p = r.lo; p < r.hi; ++p) range_of[p] = static_cast<std::uint32_t>(r.file);
    }
    unread.assign(passes, 1);
    buffer_entries =
        io_buffer_bytes(budget.room(), passes) / sizeof(typename SuccessorBlocks<K>::Entry);
    for (const std::size_t in_memory : {ranges.front().hi, std::size_t{0}}) {
      files.emplace(spill, passes);
      auto expansions = std::make_unique<Expansions>([&] {
        return Expansion(*files, range_of, buffer_entries, in_memory, rank_count, budget);
      });
      abort = false;
      live.expanded = 0;
      expand_current(*expansions, 0, parts);
      bool overflow = false;
      WideCount<K> step_closed;
      bool closed_wide = false;
      for (auto& e : *expansions) {
        if (!abort.load()) e.writer->flush();
        e.writer.reset();  // gives its buffers back
        overflow = overflow || e.overflow;
        closed_wide = step_closed.add(e.closed) || closed_wide;
      }
      const std::uint32_t outcome = agreed_outcome(overflow);
      if ((outcome & kOverflow) != 0) return abandon(StepEnd::overflow);
      if ((outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0 && in_memory > 0) {
        spdlog::debug("step {}: the first range did not fit beside the expansion, expanded again",
                      k + 1);
        ++live.redone;
        expansions.reset();
        budget.clear_exceeded();
        continue;
      }
      if (outcome != 0) return abandon(StepEnd::stopped);
      closed_taken = true;
      if (distributed) step_closed = sum_over_ranks(*ranks, step_closed, closed_wide);
      if (closed.add(step_closed) || closed_wide) return abandon(StepEnd::overflow);
      if (in_memory > 0) first_range = std::move(expansions);
      break;
    }
  }

  // Reads range file `f` into the threads' blocks, keeping the successors of parts [lo, hi);
  // sets `abort` when stopped or out of memory.
  auto read_file = [&](Expansions& expansions, std::size_t f, std::size_t lo, std::size_t hi) {
    using Entry = typename SuccessorBlocks<K>::Entry;
    const std::uint64_t kChunk = io_buffer_bytes(budget.room(), 1) / sizeof(Entry);
    const std::uint64_t n = files->bytes(f) / sizeof(Entry);
    tbb::enumerable_thread_specific<std::vector<Entry>> buffers;
    tbb::parallel_for(std::uint64_t{0}, (n + kChunk - 1) / kChunk, [&](std::uint64_t c) {
      if (!poll()) return;
      std::vector<Entry>& buffer = buffers.local();
      if (buffer.empty()) {
        budget.charge(kChunk * sizeof(Entry));
        buffer.resize(kChunk);
      }
      const std::uint64_t a = c * kChunk, m = std::min(kChunk, n - a);
      files->read(f, a * sizeof(Entry), buffer.data(), m * sizeof(Entry));
      Expansion& e = expansions.local();
      for (std::uint64_t i = 0; i < m; ++i) {
        const std::size_t p = part_of(buffer[i].key);
        if (p < lo || p >= hi) continue;
        if (!e.blocks.add(p - lo, buffer[i].key, buffer[i].count)) {
          abort = true;
          return;
        }
      }
    });
    for (auto& buffer : buffers) budget.release(buffer.size() * sizeof(Entry));
  };

  while (!ranges.empty()) {
    const Range range = ranges.front();
    const std::size_t lo = range.lo, hi = range.hi;
    ranges.pop_front();
    live.pass = live.pass + 1;
    abort = false;
    std::atomic<bool> overflow{false};
    // Phase 1: this range's successors into each thread's blocks (the first range's are there).
    std::unique_ptr<Expansions> held_here = std::move(first_range);
    const bool from_expansion = held_here != nullptr;
    if (!from_expansion) {
      held_here =
          std::make_unique<Expansions>([&] { return Expansion(hi - lo, rank_count, budget); });
    }
    Expansions& expansions = *held_here;
    if (!from_expansion) {
      if (files) {
        read_file(expansions, range.file, lo, hi);
      } else {
        live.expanded = 0;
        expand_current(expansions, lo, hi);
      }
    }

    // Phase 2: aggregate, a part at a time.
    if (!abort.load() && !stop.stopped()) {
      std::vector<const SuccessorBlocks<K>*> written;
      for (auto& e : expansions) written.push_back(&e.blocks);
      tbb::parallel_for(lo, hi, [&](std::size_t p) {
        if (abort.load(std::memory_order_relaxed)) return;
        bool wide = false;
        if (!tables.local().aggregate(written, p - lo, next.parts[p], budget, wide)) abort = true;
        if (wide) overflow = true;
      });
    }
    std::uint64_t pass_successors = 0;  // of this pass's parts only: each pass keeps its own
    WideCount<K> pass_closed;
    bool closed_wide = false;
    std::uint64_t held = 0;  // bytes of blocks and tables this pass
    for (auto& e : expansions) {
      pass_successors += e.blocks.successors();
      if (e.overflow) overflow = true;
      closed_wide = pass_closed.add(e.closed) || closed_wide;
      held += e.blocks.bytes() + e.outbox.bytes();
    }
    for (auto& t : tables) held += t.bytes();
    for (auto& t : tables) t.release(budget);

    const std::uint32_t outcome = agreed_outcome(overflow.load());
    const bool out_of_memory = (outcome & kOutOfMemory) != 0 && (outcome & kStopped) == 0;
    // The first range, held in memory since the expansion, did not fit its classes: its
    // successors go to its file, to be read back in halves like any other range.
    if (from_expansion && out_of_memory && (outcome & kOverflow) == 0 && hi - lo > 1) {
      spdlog::debug("step {}: the first range's successors go to its file", k + 1);
      for (auto& e : expansions) {
        SuccessorWriter<K> writer(*files, range_of, buffer_entries, budget);
        for (std::size_t p = lo; p < hi; ++p) {
          e.blocks.for_each(p - lo, [&](const typename SuccessorBlocks<K>::Entry& x) {
            writer.add(p, x.key, x.count);
          });
        }
        writer.flush();
      }
    }
    held_here.reset();  // gives the blocks back
    // Freed blocks would otherwise stay resident in the threads' heaps beside the classes
    // the next pass or step allocates (small steps reuse them; trimming would cost faults).
    if (held > kTrimAfterBytes) return_freed_memory();
    if ((outcome & (kAborted | kStopped | kOverflow)) != 0) {
      for (std::size_t p = lo; p < hi; ++p) {
        budget.release(next.parts[p].keys.size() * Generation<K>::kClassBytes);
        next.parts[p] = {};
      }
      if ((outcome & kOverflow) != 0) return abandon(StepEnd::overflow);
      if (!out_of_memory || !spill.enabled() || hi - lo == 1) return abandon(StepEnd::stopped);
      // Out of memory: make room on disk and redo the range in two halves.
      spdlog::debug("step {}: parts {}-{} did not fit, redone in two halves", k + 1, lo, hi - 1);
      ++live.redone;
      budget.clear_exceeded();
      start_spilling();
      const std::size_t mid = lo + (hi - lo) / 2;
      ranges.push_front({mid, hi, range.file});
      ranges.push_front({lo, mid, range.file});
      if (files) ++unread[range.file];
      live.passes = live.passes + 1;
      live.pass = live.pass - 1;
      continue;
    }
    successors += pass_successors;
    if (files && --unread[range.file] == 0) files->drop(range.file);
    if (!closed_taken) {
      closed_taken = true;
      if (distributed) pass_closed = sum_over_ranks(*ranks, pass_closed, closed_wide);
      if (closed.add(pass_closed) || closed_wide) return abandon(StepEnd::overflow);
    }
    if (spilling) {
      for (std::size_t p = lo; p < hi; ++p) out->add(next.parts[p], p, budget);
      return_freed_memory();
    }
  }
  if (spilling) {
    out->map(next);
  }
  return StepEnd::done;
}

}  // namespace knightstour::frontier_detail
