#pragma once

// What the ranks of a step counted over MPI (Ranks) exchange and agree on: successors sent
// to the ranks that own them, pass outcomes, and the cycles completed.

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/step/step_expansion.hpp"
#include "frontier/store/generation.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour::frontier_detail {

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

// After a round of a pass over several ranks: sends every thread's outbox to the ranks that
// own its successors, in rank order (Ranks::all_to_all), and keeps what this rank received
// in the threads' blocks or range files (`part_of` a key: its part; `lo`: the pass's first
// part; `slots`: a class's slots). Returns the bytes sent, or nothing when a block could not grow
// within the budget.
template <int K, class PartOf>
std::optional<std::uint64_t> exchange_outboxes(
    Ranks& ranks, tbb::enumerable_thread_specific<Expansion<K>>& expansions, const PartOf& part_of,
    std::size_t lo, [[maybe_unused]] int slots) {
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
          assert(p >= lo && owner_rank(route_hash(x.key, slots), ranks.size()) == ranks.rank());
          if (!e.keep(p, lo, x.key, x.count)) {
            full = true;
            return;
          }
        }
      });
  if (full.load()) return std::nullopt;
  return send.size();
}

}  // namespace knightstour::frontier_detail
