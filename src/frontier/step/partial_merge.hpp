#pragma once

// Parts of one part of the next generation, each made from a slice of the current one,
// merged into the part (a sliced step: InSlices).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frontier/class/class_hash.hpp"
#include "frontier/class/frontier_class.hpp"
#include "frontier/store/class_buffer.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/store/memory_budget.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour::frontier_detail {

// The order a sliced step's partial parts keep their classes in (AggregationTable, sorted):
// by the bucket of their type pattern (the grouping every part has), then merge_hash of the
// key, the order the aggregation table's slots nearly have already. merge_hash is a
// bijection, so two classes are equal in it only when their keys are.
struct MergeOrder {
  std::uint64_t bucket;
  std::uint64_t hash;
  std::uint64_t key;
  bool operator<(const MergeOrder& o) const {
    return bucket != o.bucket ? bucket < o.bucket : hash < o.hash;
  }
  bool operator==(const MergeOrder& o) const { return key == o.key; }
};
inline MergeOrder merge_order(std::uint64_t key, int slots, int bucket_bits) {
  const std::uint64_t bucket =
      slots == 0 ? 0 : pattern_bucket(type_pattern(key, slots), bucket_bits);
  return {bucket, merge_hash(key), key};
}

// Merges `in` (each in MergeOrder) into one part, adding the counts of equal keys; sets
// `overflow` when a sum outgrows K limbs. `buffers` holds one ClassBuffer an input at least.
template <int K>
ClassPart merge_parts(const std::vector<const ClassPart*>& in, int slots, int bucket_bits,
                      PartWriter<K>& writer, std::vector<ClassBuffer<K>>& buffers, bool& overflow) {
  struct Cursor {
    const ClassPart* part;
    ClassBuffer<K>* buffer;
    std::size_t block = 0, n = 0, i = 0;
    MergeOrder head{};
  };
  std::vector<Cursor> live;
  live.reserve(in.size());
  auto load = [&](Cursor& c) {  // false once the part is read
    if (c.i < c.n) {
      c.head = merge_order(c.buffer->keys[c.i], slots, bucket_bits);
      return true;
    }
    if (c.block >= c.part->blocks()) return false;
    c.n = c.part->decode(c.block++, *c.buffer);
    c.i = 0;
    if (c.n == 0) return false;
    c.head = merge_order(c.buffer->keys[0], slots, bucket_bits);
    return true;
  };
  for (std::size_t j = 0; j < in.size(); ++j) {
    if (in[j]->size() == 0) continue;
    Cursor c{in[j], &buffers[j]};
    if (load(c)) live.push_back(c);
  }
  while (!live.empty()) {
    MergeOrder least = live[0].head;
    for (std::size_t j = 1; j < live.size(); ++j) {
      if (live[j].head < least) least = live[j].head;
    }
    WideCount<K> sum;
    for (std::size_t j = 0; j < live.size();) {
      Cursor& c = live[j];
      if (c.head == least) {
        if (sum.add(c.buffer->counts[c.i])) overflow = true;
        ++c.i;
        if (!load(c)) {
          live[j] = live.back();
          live.pop_back();
          continue;
        }
      }
      ++j;
    }
    writer.add(least.key, sum);
  }
  return writer.finish();
}

}  // namespace knightstour::frontier_detail
