#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "knightstour/frontier/class_buffer.hpp"
#include "knightstour/frontier/memory_budget.hpp"
#include "knightstour/frontier/spill.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// Frees a vector's storage. `v = {}` would not: it picks the initializer-list assignment,
// which empties the vector but keeps its capacity, so memory the budget had released stayed
// allocated (8x8 closed held 19 GB against a 10 GiB budget; 9x10 closed was killed).
template <class T>
void free_storage(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// The classes of one step and their counts, split into parts by hash (parts let threads
// build and sweep them side by side), each part dense: 8 + 8K bytes a class. A part lives
// in memory (its vectors, counted in the budget) or in a file (a spilled generation, or the
// checkpoint resumed from), read a chunk at a time into a reader's ClassBuffer (not counted:
// on disk and in the page cache).
template <int K>
struct Generation {
  struct Part {
    std::vector<std::uint64_t> keys;
    std::vector<WideCount<K>> counts;
    std::shared_ptr<const ClassFile> file;  // set when the part is in a file
    std::uint64_t keys_at = 0;              // where, in the file, its keys start
    std::uint64_t counts_at = 0;            // and its counts
    std::size_t file_size = 0;

    bool in_file() const { return file != nullptr; }
    std::size_t size() const { return in_file() ? file_size : keys.size(); }

    // Copies keys [begin, begin + n) to `out`.
    void read_keys(std::size_t begin, std::size_t n, std::uint64_t* out) const {
      if (in_file()) {
        file->read(out, n * 8, keys_at + begin * 8);
      } else {
        std::copy_n(keys.data() + begin, n, out);
      }
    }
    // Copies counts [begin, begin + n) to `out`.
    void read_counts(std::size_t begin, std::size_t n, WideCount<K>* out) const {
      if (in_file()) {
        file->read(out, n * 8 * K, counts_at + begin * 8 * K);
      } else {
        std::copy_n(counts.data() + begin, n, out);
      }
    }
    // Calls fn(keys, counts, n) over classes [begin, end), a chunk at a time: in place when
    // the part is in memory, read into `buffer` first when it is in a file.
    template <class Fn>
    void for_each_chunk(std::size_t begin, std::size_t end, ClassBuffer<K>& buffer, Fn&& fn) const {
      if (!in_file()) {
        if (begin < end) fn(keys.data() + begin, counts.data() + begin, end - begin);
        return;
      }
      buffer.ensure();
      for (std::size_t at = begin; at < end; at += ClassBuffer<K>::kClasses) {
        const std::size_t n = std::min(ClassBuffer<K>::kClasses, end - at);
        read_keys(at, n, buffer.keys.data());
        read_counts(at, n, buffer.counts.data());
        fn(static_cast<const std::uint64_t*>(buffer.keys.data()),
           static_cast<const WideCount<K>*>(buffer.counts.data()), n);
      }
    }
  };
  std::vector<Part> parts;

  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.size();
    return n;
  }
  // Whether some part is in a file.
  bool in_files() const {
    for (const auto& p : parts) {
      if (p.in_file()) return true;
    }
    return false;
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
