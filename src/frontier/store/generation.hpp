#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "frontier/store/class_buffer.hpp"
#include "frontier/store/compact_classes.hpp"
#include "frontier/store/spill.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// Frees a vector's storage. `v = {}` would not: it picks the initializer-list assignment,
// which empties the vector but keeps its capacity, so memory the budget had released stayed
// allocated (8x8 closed held 19 GB against a 10 GiB budget; 9x10 closed was killed).
template <class T>
void free_storage(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// A part of a generation: its classes in compact form (compact_classes.hpp), held in memory
// (counted in the budget) or in a file (a spilled generation, or the checkpoint resumed from:
// only the index stays here). Either way a reader decodes a block at a time into a
// ClassBuffer of its own. The bytes do not depend on the limbs of the counts, so one part
// serves a generation of any width.
struct ClassPart {
  CompactClasses classes;
  std::shared_ptr<const ClassFile> file;  // set when the bytes are in a file
  std::uint64_t file_at = 0;              // where, in the file, the bytes start

  bool in_file() const { return file != nullptr; }
  std::size_t size() const { return static_cast<std::size_t>(classes.classes); }
  std::size_t blocks() const { return classes.blocks(); }
  // Bytes this part holds in memory (its index alone when in a file).
  std::uint64_t memory_bytes() const { return classes.memory_bytes(); }
  // Bytes of its classes, wherever they are.
  std::uint64_t class_bytes() const { return classes.byte_size(); }

  // Decodes block b into `buffer` (reading it from the file first when there); returns
  // the classes in it.
  template <int K>
  std::size_t decode(std::size_t b, ClassBuffer<K>& buffer) const {
    constexpr std::size_t kBlock = CompactClasses::kBlockClasses;
    buffer.ensure(std::min(kBlock, size() - b * kBlock));
    const std::uint64_t n = classes.block_bytes(b);
    const std::uint8_t* data = nullptr;
    if (in_file()) {
      std::uint8_t* room = buffer.room_for(n);
      file->read(room, n, file_at + classes.block_offset(b));
      data = room;
    } else {
      data = classes.bytes.data() + classes.block_offset(b);
    }
    return CompactClasses::decode_block<K>(data, n, buffer.keys.data(), buffer.counts.data(),
                                           buffer.keys.size());
  }

  // Calls fn(keys, counts, n) over classes [begin, end), a block at a time, decoded into
  // `buffer`. Ranges that start and end on blocks (multiples of kBlockClasses) decode no
  // class twice.
  template <int K, class Fn>
  void for_each_chunk(std::size_t begin, std::size_t end, ClassBuffer<K>& buffer, Fn&& fn) const {
    constexpr std::size_t kBlock = CompactClasses::kBlockClasses;
    end = std::min(end, size());
    for (std::size_t b = begin / kBlock; b * kBlock < end; ++b) {
      const std::size_t first = b * kBlock;
      const std::size_t n = decode(b, buffer);
      const std::size_t lo = std::max(begin, first) - first;
      const std::size_t hi = std::min(end, first + n) - first;
      if (lo < hi) {
        fn(static_cast<const std::uint64_t*>(buffer.keys.data() + lo),
           static_cast<const WideCount<K>*>(buffer.counts.data() + lo), hi - lo);
      }
    }
  }
};

// The classes of one step and their counts, split into parts by hash (parts let threads
// build and sweep them side by side).
template <int K>
struct Generation {
  using Part = ClassPart;
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
    for (const auto& p : parts) n += p.memory_bytes();
    return n;
  }
  // Bytes of every class, in memory or in files (without the index).
  std::uint64_t class_bytes() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.class_bytes();
    return n;
  }
  // Bytes a class of this generation holds at rest, wherever it is: its bytes and its share
  // of the index.
  std::uint64_t rest_bytes() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.class_bytes() + p.classes.block_at.size() * 8;
    return n;
  }
  // Calls fn(keys, counts, n) over every class of part p, a block at a time.
  template <class Fn>
  void for_each_chunk(std::size_t p, ClassBuffer<K>& buffer, Fn&& fn) const {
    parts[p].template for_each_chunk<K>(0, parts[p].size(), buffer, fn);
  }
  // Calls fn(key, count) for every class, part after part, on this thread (tests, tools).
  template <class Fn>
  void for_each_class(Fn&& fn) const {
    ClassBuffer<K> buffer;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      for_each_chunk(p, buffer,
                     [&](const std::uint64_t* keys, const WideCount<K>* counts, std::size_t n) {
                       for (std::size_t i = 0; i < n; ++i) fn(keys[i], counts[i]);
                     });
    }
  }
  // Bytes a class of K limbs took before compact classes (8 for the key, 8 a limb): what
  // a step holds for a class while it is being aggregated.
  static constexpr std::uint64_t kClassBytes = 8 + 8 * K;
  static constexpr int kLimbs = K;
};

}  // namespace knightstour
