#pragma once

// A part of a generation in a few bytes a class: how a part is held between steps, written
// to spill files and to checkpoints. The generation (generation.hpp) uses it through
// CompactWriter and CompactClasses::decode_block and never sees its bytes.
//
// A class is a key and a count. Classes come grouped: the writer is given, with each key, a
// group value (the store passes its type pattern, frontier_class.hpp), and the classes of one
// pattern lie next to each other in a part (aggregation_table.hpp). Keys of one pattern
// differ only in a few bits (which ends close and where their mates are), so a run of classes
// of one group is written as the bits where its keys differ from the group value, squeezed
// together. A part is a sequence of blocks of up to kBlockClasses classes, a block a sequence
// of runs:
//   varint n      classes in the run, 1 .. kBlockClasses
//   varint group
//   varint mask   the bits where some key of the run differs from the group value
//   n fields      each key's (key ^ group) with the bits of `mask` gathered (extract_bits), of
//                 popcount(mask) bits each, packed least significant first, padded to a byte
//   n counts      each in as many bytes as its value needs (put_count: 1 byte under 128,
//                 2 under 16,512, else a length and the value's bytes)
// A count takes the bytes its value needs whatever the limbs of the generation, so widening a
// generation leaves its bytes as they are. Invariants: a block starts a run (a block decodes
// on its own, and threads read blocks in parallel); block b is bytes [block_at[b],
// block_at[b + 1]); every block but the last holds exactly kBlockClasses classes; the bytes
// held in memory end with kPadding zero bytes past the last block, so that the decoder reads
// whole words. Keys and counts come back as they went in, in the same order, however they
// are grouped: grouping only decides the size.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

namespace compact_detail {

inline std::uint8_t* put_varint(std::uint8_t* out, std::uint64_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<std::uint8_t>(v);
  return out;
}

// Reads a varint of at most 64 bits at `p`; false when it runs past `end` or 64 bits.
inline bool get_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    const std::uint8_t b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return shift < 63 || (b >> 1) == 0;
  }
  return false;
}

// A count in as many bytes as its value needs, read with one branch on its first byte:
//   0xxxxxxx                  0 .. 127
//   10xxxxxx yyyyyyyy         128 + (x << 8 | y): 128 .. 16,511
//   11nnnnnn and n bytes      n = 1 .. 62 (first byte 0xc1 .. 0xfe), the value little-endian
//   0xff n and n bytes        n = 63 .. 128, the same
// The counts of 8x8 closed are mostly small (78% under 128, 99.7% under 2^14: measured on its
// spill files), and the widest (1024 bits, long boards) are copied, not shifted 7 bits at a
// time. The encoder writes the shortest form, so equal counts give equal bytes.
inline constexpr std::uint64_t kTwoByteCounts = 128 + (std::uint64_t{1} << 14);

// The most bytes a count of K limbs takes.
template <int K>
constexpr std::size_t max_count_bytes() {
  return 2 + 8 * static_cast<std::size_t>(K);
}

template <int K>
inline __attribute__((always_inline)) std::uint8_t* put_count(std::uint8_t* out,
                                                              const WideCount<K>& c) {
  bool small = true;  // the value fits the low limb
  for (int i = 1; i < K; ++i) small = small && c.limb[static_cast<std::size_t>(i)] == 0;
  const std::uint64_t low = c.limb[0];
  if (small && low < 128) {
    *out = static_cast<std::uint8_t>(low);
    return out + 1;
  }
  if (small && low < kTwoByteCounts) {
    const std::uint64_t v = low - 128;
    out[0] = static_cast<std::uint8_t>(0x80 | (v >> 8));
    out[1] = static_cast<std::uint8_t>(v);
    return out + 2;
  }
  int top = K;  // limbs up to the highest nonzero one
  while (top > 1 && c.limb[static_cast<std::size_t>(top - 1)] == 0) --top;
  const int n =
      (top - 1) * 8 +
      (static_cast<int>(std::bit_width(c.limb[static_cast<std::size_t>(top - 1)])) + 7) / 8;
  if (n <= 62) {
    *out++ = static_cast<std::uint8_t>(0xc0 + n);
  } else {
    *out++ = 0xff;
    *out++ = static_cast<std::uint8_t>(n);
  }
  // Whole limbs, little-endian, of which the count keeps n bytes: a copy of a length known
  // only at run time compiles to `rep movs`, slow to start for so few bytes (get_count
  // likewise). The bytes past n are overwritten by whatever follows, within the room the
  // caller has for the longest count (max_count_bytes).
  for (std::size_t i = 0; i < static_cast<std::size_t>(top); ++i)
    std::memcpy(out + 8 * i, &c.limb[i], 8);
  return out + n;
}

// put_count's one- and two-byte forms for a count under kTwoByteCounts, without a branch on
// which (masks: the compiler made a conditional a branch, mispredicted where a fifth of the
// counts take two bytes in no learnable order). Writes two bytes at `out`, of which the count
// keeps the 1 or 2 returned; the second of a one-byte count is the caller's to overwrite.
inline std::size_t put_short_count(std::uint8_t* out, std::uint64_t low) {
  const std::uint64_t two = low >= 128 ? 1 : 0;
  const std::uint64_t v = low - 128;
  const std::uint64_t two_bytes = (0x80 | (v >> 8)) | ((v & 0xff) << 8);
  const std::uint64_t mask = 0 - two;
  const auto bytes = static_cast<std::uint16_t>((low & ~mask) | (two_bytes & mask));
  std::memcpy(out, &bytes, 2);
  return 1 + two;
}
// Whether a count's first byte starts a one- or two-byte form (get_short_count reads it).
inline bool is_short_count(std::uint8_t first) { return first < 0xc0; }
// Reads a one- or two-byte count at `p` (is_short_count) without a branch on which; reads
// two bytes whichever it is.
inline std::uint64_t get_short_count(const std::uint8_t*& p) {
  const std::uint8_t first = p[0];
  const std::uint64_t two = first >> 7;
  const std::uint64_t mask = 0 - two;
  const std::uint64_t two_bytes = 128 + ((std::uint64_t{first & 0x3fu} << 8) | p[1]);
  p += 1 + two;
  return (first & ~mask) | (two_bytes & mask);
}

// Reads a count of put_count; false when it runs past `end`, is not in its shortest form's
// layout, or needs more than K limbs.
template <int K>
inline __attribute__((always_inline)) bool get_count(const std::uint8_t*& p,
                                                     const std::uint8_t* end, WideCount<K>& c) {
  if (p == end) return false;
  const std::uint8_t b = *p++;
  if (b < 0x80) {
    c = WideCount<K>{};
    c.limb[0] = b;
    return true;
  }
  if (b < 0xc0) {
    if (p == end) return false;
    const std::uint64_t low = *p++;
    c = WideCount<K>{};
    c.limb[0] = 128 + ((static_cast<std::uint64_t>(b & 0x3f) << 8) | low);
    return true;
  }
  std::size_t n = b - 0xc0u;
  if (b == 0xff) {
    if (p == end) return false;
    n = *p++;
    if (n < 63) return false;
  }
  if (n == 0 || n > 8 * static_cast<std::size_t>(K) || static_cast<std::size_t>(end - p) < n)
    return false;
  // Whole words; the last may read up to 7 bytes past the count (what follows it in the
  // block, or the kPadding past the block), which the mask drops.
  c = WideCount<K>{};
  const std::size_t words = (n + 7) / 8;
  for (std::size_t i = 0; i < static_cast<std::size_t>(K) && i < words; ++i)
    std::memcpy(&c.limb[i], p + 8 * i, 8);
  if (n % 8 != 0) c.limb[words - 1] &= (std::uint64_t{1} << (8 * (n % 8))) - 1;
  p += n;
  return true;
}

}  // namespace compact_detail

// The classes of one part in compact form (the layout above): the bytes, when held in
// memory, and where each block starts. A part in a file keeps its index here and its bytes
// there.
struct CompactClasses {
  static constexpr std::size_t kBlockClasses = 1024;
  // Zero bytes after the last block in memory, and what a reader's buffer must have past a
  // block read from a file.
  static constexpr std::size_t kPadding = 16;

  std::vector<std::uint8_t> bytes;      // empty when the part is in a file
  std::vector<std::uint64_t> block_at;  // blocks() + 1 offsets into the bytes; empty: none
  std::uint64_t classes = 0;

  std::size_t blocks() const { return block_at.empty() ? 0 : block_at.size() - 1; }
  // Bytes of the blocks (without the padding).
  std::uint64_t byte_size() const { return block_at.empty() ? 0 : block_at.back(); }
  // Memory held: the bytes (when here) and the index.
  std::uint64_t memory_bytes() const {
    return bytes.capacity() + block_at.capacity() * sizeof(std::uint64_t);
  }
  // Where block b's bytes start, and how many there are.
  std::uint64_t block_offset(std::size_t b) const { return block_at[b]; }
  std::uint64_t block_bytes(std::size_t b) const { return block_at[b + 1] - block_at[b]; }

  // Decodes a block's n bytes at `data` (followed by kPadding readable bytes) into keys and
  // counts (room for `room` of each, at most kBlockClasses); returns the classes decoded.
  // Throws std::runtime_error when the bytes are not a block of this form, hold more classes
  // than `room`, or a count needs more than K limbs.
  template <int K>
  static std::size_t decode_block(const std::uint8_t* data, std::size_t n, std::uint64_t* keys,
                                  WideCount<K>* counts, std::size_t room = kBlockClasses) {
    room = std::min(room, kBlockClasses);
    return cpu_has_fast_bmi2() ? decode<K, BitKernel::bmi2>(data, n, keys, counts, room)
                               : decode<K, BitKernel::portable>(data, n, keys, counts, room);
  }

 private:
  [[noreturn]] static void malformed() {
    throw std::runtime_error("a block of compact classes is malformed");
  }

  // B: how bits are gathered and spread (frontier_detail::extract_bits): pext and pdep where
  // the CPU runs them fast, whichever kernel expands classes.
  template <int K, BitKernel B>
  static std::size_t decode(const std::uint8_t* data, std::size_t n, std::uint64_t* keys,
                            WideCount<K>* counts, std::size_t room) {
    const std::uint8_t* p = data;
    const std::uint8_t* end = data + n;
    std::size_t out = 0;
    while (p != end) {
      std::uint64_t size = 0, group = 0, mask = 0;
      if (!compact_detail::get_varint(p, end, size) || !compact_detail::get_varint(p, end, group) ||
          !compact_detail::get_varint(p, end, mask) || size == 0 || size > room - out)
        malformed();
      const int w = std::popcount(mask);
      const std::uint64_t packed = (size * static_cast<std::uint64_t>(w) + 7) / 8;
      if (static_cast<std::uint64_t>(end - p) < packed) malformed();
      if (w == 0) {
        std::fill_n(keys + out, size, group);
      } else {
        // A field of up to 64 bits at a bit offset of up to 7 lies in 9 bytes: a word, and
        // the ninth byte only when the field needs it. Words past the fields read the
        // counts or the padding, never past it.
        const std::uint64_t low = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
        for (std::uint64_t i = 0; i < size; ++i) {
          const std::uint64_t bit = i * static_cast<std::uint64_t>(w);
          const int shift = static_cast<int>(bit % 8);
          std::uint64_t word;
          std::memcpy(&word, p + bit / 8, 8);
          std::uint64_t field = word >> shift;
          if (shift + w > 64) field |= static_cast<std::uint64_t>(p[bit / 8 + 8]) << (64 - shift);
          keys[out + i] = group ^ frontier_detail::deposit_bits<B>(field & low, mask);
        }
      }
      p += packed;
      for (std::uint64_t i = 0; i < size; ++i) {
        if (!compact_detail::get_count(p, end, counts[out + i])) malformed();
      }
      out += size;
    }
    return out;
  }
};

// Builds a CompactClasses from classes added one at a time, in the order they are to be
// read back. Reusable: finish() hands the classes over (at their exact size) and starts
// afresh, keeping its scratch for the next part.
template <int K>
class CompactWriter {
 public:
  CompactWriter() = default;

  // Adds a class of group `group` (classes of one group are best added one after another).
  void add(std::uint64_t key, std::uint64_t group, const WideCount<K>& count) {
    if (classes_ > 0 && classes_ % CompactClasses::kBlockClasses == 0) {  // a block is full
      flush_run();
      block_at_.push_back(used_);
    }
    if (run_ > 0 && group != group_) flush_run();
    group_ = group;
    if (run_ == keys_.size()) grow_run();
    keys_[run_] = key;
    counts_[run_] = count;
    mask_ |= key ^ group;
    ++run_;
    ++classes_;
  }

  std::uint64_t size() const { return classes_; }
  // Scratch bytes kept between parts.
  std::uint64_t scratch_bytes() const {
    return scratch_.capacity() + block_at_.capacity() * sizeof(std::uint64_t) +
           keys_.capacity() * sizeof(std::uint64_t) + counts_.capacity() * sizeof(WideCount<K>);
  }

  CompactClasses finish() {
    flush_run();
    CompactClasses done;
    done.classes = classes_;
    if (classes_ > 0) {
      block_at_.push_back(used_);
      done.block_at.assign(block_at_.begin(), block_at_.end());
      done.bytes.reserve(used_ + CompactClasses::kPadding);
      done.bytes.assign(scratch_.begin(), scratch_.begin() + static_cast<std::ptrdiff_t>(used_));
      done.bytes.resize(used_ + CompactClasses::kPadding);
    }
    used_ = 0;
    block_at_.assign(1, 0);
    classes_ = 0;
    return done;
  }

 private:
  // Room for the open run's classes, grown by doubling up to a block's: a writer is made for
  // each step's tables, and a block's worth of wide counts zeroed every time cost 3x400 (1,200
  // steps of a few hundred classes, 1024-bit counts) twice its time.
  void grow_run() {
    const std::size_t n =
        std::min(CompactClasses::kBlockClasses, std::max<std::size_t>(16, 2 * keys_.size()));
    keys_.resize(n);
    counts_.resize(n);
  }

  void flush_run() {
    if (run_ == 0) return;
    if (cpu_has_fast_bmi2()) {
      write_run<BitKernel::bmi2>();
    } else {
      write_run<BitKernel::portable>();
    }
    run_ = 0;
    mask_ = 0;
  }

  template <BitKernel B>
  void write_run() {
    // Room for the run at its longest, made by doubling (never per run: resizing zeroes it).
    const std::size_t most = 3 * 10 + run_ * (9 + compact_detail::max_count_bytes<K>()) + 8;
    if (scratch_.size() < used_ + most) scratch_.resize(2 * (used_ + most));
    std::uint8_t* p = scratch_.data() + used_;
    p = compact_detail::put_varint(p, run_);
    p = compact_detail::put_varint(p, group_);
    p = compact_detail::put_varint(p, mask_);
    const int w = std::popcount(mask_);
    if (w > 0) {
      // Fields into a 64-bit accumulator, written out a word at a time.
      std::uint64_t acc = 0;
      int held = 0;  // bits in acc
      for (std::size_t i = 0; i < run_; ++i) {
        const std::uint64_t field = frontier_detail::extract_bits<B>(keys_[i] ^ group_, mask_);
        acc |= field << held;
        if (held + w >= 64) {
          std::memcpy(p, &acc, 8);
          p += 8;
          acc = held == 0 ? 0 : field >> (64 - held);
          held = held + w - 64;
        } else {
          held += w;
        }
      }
      std::memcpy(p, &acc, 8);
      p += (held + 7) / 8;
    }
    for (std::size_t i = 0; i < run_; ++i) p = compact_detail::put_count(p, counts_[i]);
    used_ = static_cast<std::size_t>(p - scratch_.data());
  }

  std::vector<std::uint8_t> scratch_;  // the part so far: its first used_ bytes
  std::size_t used_ = 0;
  std::vector<std::uint64_t> block_at_{0};
  std::vector<std::uint64_t> keys_;  // the open run's classes
  std::vector<WideCount<K>> counts_;
  std::size_t run_ = 0;  // classes in the open run
  std::uint64_t group_ = 0;
  std::uint64_t mask_ = 0;
  std::uint64_t classes_ = 0;
};

}  // namespace knightstour
