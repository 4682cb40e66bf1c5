#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "knightstour/frontier/spill.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// The murmur3 finalizer: spreads a class key over 64 bits. The top bits choose a class's
// part, the low bits its place in the part's aggregation table.
inline std::uint64_t class_hash(std::uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key;
}

// Frees a vector's storage. `v = {}` would not: it picks the initializer-list assignment,
// which empties the vector but keeps its capacity, so memory the budget had released stayed
// allocated (8x8 closed held 19 GB against a 10 GiB budget; 9x10 closed was killed).
template <class T>
void free_storage(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// The classes of one step and their counts, split into parts by hash (parts let threads
// build and sweep them side by side), each part dense: 8 + 8K bytes a class. A part lives
// in memory (its vectors, counted in the budget) or in a spill file the generation maps
// (not counted: the kernel pages it in and out).
template <int K>
struct Generation {
  struct Part {
    std::vector<std::uint64_t> keys;
    std::vector<WideCount<K>> counts;
    const std::uint64_t* file_keys = nullptr;  // set when the part is in a spill file
    const WideCount<K>* file_counts = nullptr;
    std::size_t file_size = 0;

    bool in_file() const { return file_keys != nullptr; }
    std::size_t size() const { return in_file() ? file_size : keys.size(); }
    const std::uint64_t* key_data() const { return in_file() ? file_keys : keys.data(); }
    const WideCount<K>* count_data() const { return in_file() ? file_counts : counts.data(); }
  };
  std::vector<Part> parts;
  std::vector<std::shared_ptr<const SpillMapping>> files;  // keep the file parts mapped

  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.size();
    return n;
  }
  // Bytes of the parts held in memory (what the budget counts).
  std::uint64_t memory_bytes() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.in_file() ? 0 : p.keys.size() * kClassBytes;
    return n;
  }
  static constexpr std::uint64_t kClassBytes = 8 + 8 * K;
  static constexpr int kLimbs = K;
};

}  // namespace knightstour
