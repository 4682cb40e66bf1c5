#pragma once

// How a step is cut up before it runs: parts of the next generation (by class hash), and,
// when the step may not fit the memory budget, ranges of parts built one after another.

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/successor_blocks.hpp"

namespace knightstour::frontier_detail {

// Parts for a step expected to produce about `successors`: about 2^14 successors a part, so
// that a part's aggregation table (3/2 slot a successor, 512 KiB) stays in the L2 cache; at
// most 2^14 parts (each thread keeps a block open per part: 8 MiB of them at the most).
// Fewer, larger parts than 2^12 successors each measured 1.13x faster on 7x8 closed: a
// thread's open blocks then fit the cache too (docs/speed.md (huge-pages.md)).
inline constexpr int kPartSuccessorBits = 14;
inline constexpr int kMaxPartBits = 14;
inline int part_bits(std::uint64_t successors) {
  int bits = 0;
  while (bits < kMaxPartBits && (std::uint64_t{1} << (bits + kPartSuccessorBits)) < successors)
    ++bits;
  return bits;
}

// Part bits, from `bits` up, for a step under a budget with `room` bytes: a part must be
// aggregated in one go (its table, table_bytes(successors)), and a step can make 2-3x the
// successors forecast (steps alternate between squares where most paths branch and squares
// where many die), so its parts are made small enough that a part of twice its share still
// fits an eighth of the room. Under a budget of a few MB a step forecast at 16,032 successors
// made 30,477 in its one part, whose table (1 MB, and its copy for grouping) outgrew the room:
// the count stopped, where more parts would have fit. Budgets of 100 MB and more never come
// near it: a part's table is 1-2 MB.
template <class TableBytes>
int part_bits_within(int bits, std::uint64_t successors, std::uint64_t room,
                     TableBytes&& table_bytes) {
  while (bits < kMaxPartBits && 8 * table_bytes(2 * (successors >> bits) + 1) > room) ++bits;
  return bits;
}

// The part of a class with hash `hash` (route_hash) in a generation of 2^bits parts: the
// hash's top bits.
inline std::size_t part_at(std::uint64_t hash, int bits) {
  return bits == 0 ? 0 : static_cast<std::size_t>(hash >> (64 - bits));
}

// What a step expects to hold, to plan its passes: every successor until its part is
// aggregated, and the next generation. The sweep's guess of the successors (from the last
// step's branching) can be off 2-3x, since steps alternate between squares where most paths
// branch and squares where many die; when the guess says the step may not fit, the step
// counts them on a sample instead (sampled_successors). Distinct classes per successor vary
// less between steps of the same row of the sweep (docs/speed.md (pass-planning.md)).
struct StepForecast {
  std::uint64_t successors = 0;
  double classes_per_successor = 1;
  // Bytes a class of the next generation will hold (compact_classes.hpp): those of the
  // current one, with a margin.
  double bytes_per_class = Generation<1>::kClassBytes;
  // Bytes a successor will take in blocks (successor_blocks.hpp): what one took in the step
  // before, with a margin; 0 when no step before held any.
  double bytes_per_successor = 0;
  // Of the successors made, the share kept (not merged in a combiner, successor_combiner.hpp)
  // in the last step that combined. `successors` and `classes_per_successor` count successors
  // made, combined or not.
  double kept_share = 1;
};

// What a step measured, for the next one's forecast (0: not measured).
struct StepMeasures {
  double successor_bytes = 0;  // bytes a successor took in blocks
  double kept_share = 0;       // successors kept of those made
};

// The bytes a class of generation g holds in memory or in files, with a quarter more for
// the next generation's (it varies from step to step by less); the bytes before compact
// classes for a generation too small to tell.
template <int K>
double next_bytes_per_class(const Generation<K>& g) {
  constexpr std::uint64_t kTellsFrom = 1u << 16;
  if (g.size() < kTellsFrom) return static_cast<double>(Generation<K>::kClassBytes);
  return 1.25 * static_cast<double>(g.class_bytes()) / static_cast<double>(g.size());
}

template <int K>
std::uint64_t step_bytes(std::uint64_t successors, double classes_per_successor,
                         double bytes_per_class = Generation<K>::kClassBytes,
                         double bytes_per_successor = 0) {
  // Blocks hold a successor as its key and its count in the bytes the count needs
  // (successor_blocks.hpp): about what a successor took a step before, when known (counts
  // grow slowly from step to step), with a sixteenth more for the blocks' headers and the
  // ends they leave unfilled (8x8 closed's widest steps: 6-7% more); else no more than 8
  // bytes beside what a compact class takes, which holds the same count and some key bits,
  // and an eighth more.
  const double per_successor =
      bytes_per_successor > 0
          ? bytes_per_successor * 17 / 16
          : std::min(static_cast<double>(SuccessorBlocks<K>::kMaxEntry), 8.0 + bytes_per_class) *
                9 / 8;
  const auto classes =
      static_cast<std::uint64_t>(static_cast<double>(successors) * classes_per_successor);
  return static_cast<std::uint64_t>(static_cast<double>(successors) * per_successor) +
         static_cast<std::uint64_t>(static_cast<double>(classes) * bytes_per_class);
}

// The successors of `current` at step `rule`, counted on a 1/kSampleEvery of its classes and
// scaled up: a 1/64 of the step's expansions, and a block's buffer a thread. The sample is
// runs of kSampleRun classes, one run in every kSampleEvery (the first at a part's own
// offset): one run from every kSampleBlocks-th block, at an offset that moves from block to
// block, so that a part in a file is read a block at a time and a quarter of the blocks are
// decoded. Runs of a whole block, 16 times fewer, missed by 6% on 6x7 (the test below).
// Classes lie in a part grouped by type pattern (AggregationTable), so a run holds one or two
// patterns; the runs of a generation's thousands of parts still reach across its patterns.
inline constexpr std::size_t kSampleEvery = 64;
inline constexpr std::size_t kSampleRun = 64;
inline constexpr std::size_t kSampleBlocks =
    kSampleEvery * kSampleRun / CompactClasses::kBlockClasses;
template <int K>
std::uint64_t sampled_successors(const StepRules& rules, const StepRule& rule,
                                 const Generation<K>& current) {
  constexpr std::size_t kRunsABlock = CompactClasses::kBlockClasses / kSampleRun;
  std::atomic<std::uint64_t> made{0};
  std::atomic<std::uint64_t> sampled{0};
  tbb::enumerable_thread_specific<ClassBuffer<K>> buffers;
  tbb::parallel_for(std::size_t{0}, current.parts.size(), [&](std::size_t part) {
    const auto& in = current.parts[part];
    ClassBuffer<K>& buffer = buffers.local();
    std::uint64_t n = 0;
    std::uint64_t classes = 0;
    for (std::size_t b = part % kSampleBlocks; b < in.blocks(); b += kSampleBlocks) {
      const std::size_t size = in.decode(b, buffer);
      const std::size_t at = ((part + b / kSampleBlocks) % kRunsABlock) * kSampleRun;
      for (std::size_t i = at; i < std::min(size, at + kSampleRun); ++i) {
        expand(
            rules, rule, buffer.keys[i], [&](std::uint64_t) { ++n; }, [] {});
        ++classes;
      }
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

// Whether a step expected to need `need` bytes is worth counting on a sample first (the
// forecast says it may need more than half of what a pass fills).
inline bool worth_sampling(std::uint64_t need, std::uint64_t room) {
  return static_cast<double>(need) > static_cast<double>(room) * kPassFill / 2;
}

// Slices for a step (InSlices, step_in_slices.hpp): a step that would not fit one pass of the room
// expands the current generation a slice of its parts at a time, aggregates each slice's
// successors into partial parts and merges them at the end (partial_merge.hpp), so it holds
// one slice's successors beside partial parts, not every successor, and stays in memory
// where it would have spilled. A sliced step costs about a fifth more than one built at
// once, so a step that fits is not sliced: slicing every step that needs over a quarter of
// the room held 8x8 closed at 18.5 bytes a class, not 26.2, but took 1.08x its CPU, and a
// unit of 8x8 open that fits 1.14x (results/frontier/combiner.md). Partial parts
// take more than the parts they make (a class made in two slices is in both, and shorter runs
// compact less): 1.43x on 8x8 closed's widest step in 4 slices, so kPartialBytes. Slices: as
// many as keep a slice's successors within the larger generation's bytes (the current one
// at rest, the next one forecast: the fullest moment then holds about four times a
// generation) and within what the room leaves beside the partial parts, 2 to kMaxSlices; 1,
// not sliced, when the step needs little of the room or the partial parts alone would not
// fit (ranges then). Each slice costs a
// pass over every part; the merge, a pass over the partial parts. Without spill files a step
// is sliced from a quarter of the room (`from`): its forecast can be 2-3x short (step_plan's
// StepForecast), and nothing could take what does not fit.
inline constexpr double kSliceWithoutSpill = 0.25;
inline constexpr double kPartialBytes = 1.5;
inline constexpr std::size_t kMaxSlices = 16;
inline std::size_t slices_for(double successor_bytes, double next_bytes, double current_rest,
                              double room, double from = kPassFill) {
  if (successor_bytes + next_bytes <= room * from) return 1;
  const double beside = room * kPassFill - kPartialBytes * next_bytes;
  if (beside <= 0) return 1;
  const double generation = std::max(current_rest, next_bytes);
  const double slice =
      std::min(beside, std::max(generation, successor_bytes / static_cast<double>(kMaxSlices)));
  const double wanted = std::ceil(successor_bytes / std::max(slice, 1.0));
  return static_cast<std::size_t>(std::clamp(wanted, 2.0, static_cast<double>(kMaxSlices)));
}
// What a sliced step expects to hold at its fullest: the partial parts and a slice's
// successors.
inline double sliced_need(double successor_bytes, double next_bytes, std::size_t slices) {
  return kPartialBytes * next_bytes + successor_bytes / static_cast<double>(slices);
}

// A sliced step may set its current generation aside as it goes (InSlices, step_in_slices.hpp;
// StepSpill::set_aside; from the slice where what the slices measured says the next one would
// not fit, InSlices::aside_due): each slice's parts of it written to spill files once expanded and
// freed, so that the partial parts take the place of the current generation, not room beside
// it. Written and not read back but when the step does not finish (a checkpoint, counts
// widened, ranges), where spilling the current generation first reads it back and leaves the
// next one in files for the step after. What it holds at its fullest, beside what the room
// leaves (the current generation, `current` bytes in memory, is not in the room): after slice s
// of S, the partial parts of s slices and a slice's successors, less the s - 1 slices of the
// current generation freed; the most of it after the first slice or the last.
inline double aside_need(double successor_bytes, double next_bytes, double current,
                         std::size_t slices) {
  const double s = static_cast<double>(slices);
  const double partial = kPartialBytes * next_bytes;
  return successor_bytes / s + std::max(partial / s, partial - current * (s - 1) / s);
}
// The fewest slices, 2 to kMaxSlices, with which a step setting its current generation aside
// fits the room; 1 when none do. The whole room, not kPassFill of it: the forecast's next
// generation has a quarter more bytes a class than the one before (next_bytes_per_class) and
// partial parts half as much again, where 8x8 closed's step 45 under --memory 4300M made
// 1.37 GB of parts for 2.4 GB forecast; a step that runs out after all is built in ranges.
inline std::size_t slices_setting_aside(double successor_bytes, double next_bytes, double current,
                                        double room) {
  for (std::size_t s = 2; s <= kMaxSlices; ++s) {
    if (aside_need(successor_bytes, next_bytes, current, s) <= room) return s;
  }
  return 1;
}

// Whether a step that needs `need` bytes fits one pass in `room` bytes. When it does not,
// the step spills the current generation first (which makes room) and then asks ranges_for.
inline bool fits_one_pass(std::uint64_t need, std::uint64_t room) {
  return static_cast<double>(need) <= static_cast<double>(room) * kPassFill;
}

// Ranges for a step that needs `need` bytes in `room` bytes, each filling kPassFill of the
// room; at least 1 and never more than the step's parts.
inline std::size_t ranges_for(std::uint64_t need, std::uint64_t room, std::size_t parts) {
  const double fill = static_cast<double>(room) * kPassFill;
  if (fill < 1) return parts;
  const double wanted = std::max(1.0, std::ceil(static_cast<double>(need) / fill));
  return static_cast<std::size_t>(std::min<double>(static_cast<double>(parts), wanted));
}

}  // namespace knightstour::frontier_detail
