#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/step/step_plan.hpp"
#include "frontier/store/generation.hpp"
#include "knightstour/base/huge_chunks.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour::frontier_detail {

// The bytes of completion tables of `slots` slots in all, their counts in `limbs` limbs:
// whole huge pages from one on. A generation of n classes has 2n slots.
inline std::size_t completion_tables_bytes(std::uint64_t slots, int limbs) {
  const std::uint64_t bytes = slots * 8 * (1 + static_cast<std::uint64_t>(limbs));
  if (bytes < kHugePageBytes) return bytes;
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

// The completions of one generation's classes by key: a small table for each of the
// generation's parts, side by side in one buffer. The classes of a part share its route
// (the top bits of route_hash, frontier_step.hpp), so a key's route names its table. One
// thread fills a part's table, in one go once the step's classes are expanded: plain
// stores, no compare-and-swap, and the table (about 2 slots a class, a part being ~2^14
// successors) stays in that thread's cache while it fills. A table is open addressing with
// linear probing, at most half full, a slot being the key and its completions side by
// side, so that a lookup touches one place, which the pass prefetches. The buffer is kept
// from step to step and lies in huge pages (huge_chunks.hpp): the lookups are random. One
// table for a whole generation, filled by every thread with compare-and-swap along the
// expansion and allocated afresh each step, left the grid by the pass 1.15x slower on 6x7
// and 1.25x on 5x40 (docs/speed.md (part-tables.md)).
template <int K>
class CompletionTables {
 public:
  // An empty generation's: one part, without slots (one slot of buffer, for the prefetch).
  CompletionTables()
      : words_(static_cast<std::uint64_t*>(allocate_chunk(kWords * 8))),
        bytes_(kWords * 8),
        starts_{0, 0} {
    words_[0] = kNoClass;
  }
  CompletionTables(const CompletionTables&) = delete;
  CompletionTables& operator=(const CompletionTables&) = delete;
  ~CompletionTables() { free_chunk(words_, bytes_); }

  // Tables for the parts of generation g (each left to clear() by its filler).
  template <int L>
  void lay_out(const Generation<L>& g) {
    const std::size_t parts = g.parts.size();
    if (!std::has_single_bit(parts))
      throw std::logic_error("backward pass: a generation whose parts are not 2^n");
    bits_ = std::countr_zero(parts);
    starts_.resize(parts + 1);
    starts_[0] = 0;
    for (std::size_t p = 0; p < parts; ++p) starts_[p + 1] = starts_[p] + 2 * g.parts[p].size();
    const std::size_t bytes = completion_tables_bytes(starts_[parts], K);
    if (bytes > bytes_) {
      free_chunk(words_, bytes_);
      words_ = nullptr;
      bytes_ = 0;
      words_ = static_cast<std::uint64_t*>(allocate_chunk(bytes));
      bytes_ = bytes;
    }
  }
  void swap(CompletionTables& other) noexcept {
    std::swap(words_, other.words_);
    std::swap(bytes_, other.bytes_);
    std::swap(bits_, other.bits_);
    starts_.swap(other.starts_);
  }

  // Empties part p's table; its filler calls it first.
  void clear(std::size_t p) {
    for (std::size_t i = starts_[p]; i != starts_[p + 1]; ++i) words_[i * kWords] = kNoClass;
  }
  // Part p's table holds `key` (a class of that part; keys are distinct) and its completions.
  void insert(std::size_t p, std::uint64_t key, const WideCount<K>& completions) {
    const std::size_t first = starts_[p];
    const std::size_t last = starts_[p + 1];
    for (std::size_t i = home(key, first, last);; i = i + 1 == last ? first : i + 1) {
      std::uint64_t* slot = &words_[i * kWords];
      if (slot[0] == kNoClass) {
        slot[0] = key;
        std::copy_n(completions.limb.data(), K, slot + 1);
        return;
      }
    }
  }

  // Where the search for a key of `slots` slots begins; prefetched, then given to find().
  struct Probe {
    std::size_t at, first, last;
  };
  Probe probe(std::uint64_t key, int slots) const {
    const std::size_t p = frontier_detail::part_at(route_hash(key, slots), bits_);
    const std::size_t first = starts_[p];
    const std::size_t last = starts_[p + 1];
    return {home(key, first, last), first, last};
  }
  void prefetch(const Probe& at) const { __builtin_prefetch(&words_[at.at * kWords]); }
  // False for a key the generation does not hold.
  bool find(std::uint64_t key, const Probe& from, WideCount<K>& completions) const {
    if (from.first == from.last) return false;  // an empty part has no slots
    for (std::size_t i = from.at;; i = i + 1 == from.last ? from.first : i + 1) {
      const std::uint64_t* slot = &words_[i * kWords];
      if (slot[0] == key) {
        std::copy_n(slot + 1, K, completions.limb.data());
        return true;
      }
      if (slot[0] == kNoClass) return false;
    }
  }

 private:
  static constexpr std::size_t kWords = 1 + K;
  // A key's home slot in [first, last): the hash of the whole key (its route hashed only
  // its type pattern), scaled to the table's size by a multiply.
  static std::size_t home(std::uint64_t key, std::size_t first, std::size_t last) {
    const auto scaled = static_cast<uint128>(class_hash(key)) * (last - first);
    return first + static_cast<std::size_t>(scaled >> 64);
  }
  std::uint64_t* words_ = nullptr;
  std::size_t bytes_ = 0;
  int bits_ = 0;
  std::vector<std::size_t> starts_;  // part p's table: slots [starts_[p], starts_[p + 1])
};

}  // namespace knightstour::frontier_detail
