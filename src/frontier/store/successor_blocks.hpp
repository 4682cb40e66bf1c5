#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "frontier/store/compact_classes.hpp"
#include "frontier/store/memory_budget.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// One thread's successors of one step, partitioned by the part of the next generation they
// belong to, before any aggregation (the first half of a step; AggregationTable is the
// second).
//
// Why: aggregating each successor straight into a table of the whole generation costs a
// cache miss per successor and, with threads, a lock per part. Here a thread only appends:
// each part has an open block (about 512 bytes) that successors of that part fill in order;
// a full block is left where it is, linked from the next. Blocks come from chunks the thread
// owns, so nothing is shared while successors are produced, and no lock is taken at all.
// Afterwards each part is aggregated by one task from the blocks all threads wrote for it:
// a table the size of one part, small enough to stay in the cache. This is the design that
// spreads over many cores: threads share nothing but the read-only current generation, and
// the parts of the next are independent units of work.
//
// Memory: every successor is held until its part is aggregated, as its key (8 bytes) and its
// count in the bytes its value needs (put_count, compact_classes.hpp: 1 byte under 128, 2
// under 16,512). Successors are most of a step's peak, and their counts are mostly small:
// 9-10 bytes a successor on 8x8 closed, where a fixed entry took 8 + 8K (16 at 64 bits, 136
// at 1024).
// Chunks are reserved in the budget, and `add` fails (the caller stops or splits the pass)
// when the budget is exhausted.
template <int K>
class SuccessorBlocks {
 public:
  // The most bytes a successor takes.
  static constexpr std::size_t kMaxEntry = 8 + compact_detail::max_count_bytes<K>();
  // Bytes a block holds successors in: about 512, room for at least 4 of the widest.
  static constexpr std::size_t kBlockBytes =
      std::max<std::size_t>(512, (4 * kMaxEntry + 63) / 64 * 64) - 16;
  // put_count writes whole limbs, up to 7 bytes past a count, and get_count reads them:
  // room past the last successor a block can hold.
  static constexpr std::size_t kSlack = 8;

  // A successor as for_each hands it over.
  struct Entry {
    std::uint64_t key;
    WideCount<K> count;
  };
  // The successors of a part's blocks, each its key and then its count, `used` bytes of them
  // (the open block's: in the part's open state, Open::used).
  struct Block {
    const Block* previous;  // the part's block filled before this one (this thread)
    std::uint32_t used;
    std::uint8_t bytes[kBlockBytes + kSlack];
  };

  // Successors of parts [0, parts) are kept; budget is the generation's. Blocks come in
  // the budget's scratch chunks (MemoryBudget::take_chunk: one huge page, reused from step
  // to step), or smaller ones under a small budget.
  SuccessorBlocks(std::size_t parts, MemoryBudget& budget)
      : open_(parts), budget_(&budget), chunk_blocks_(budget.chunk_bytes() / sizeof(Block)) {}
  SuccessorBlocks(const SuccessorBlocks&) = delete;
  SuccessorBlocks& operator=(const SuccessorBlocks&) = delete;
  ~SuccessorBlocks() { clear(); }

  // Appends a successor of `part`; false when a new chunk does not fit the budget.
  [[gnu::always_inline]] bool add(std::size_t part, std::uint64_t key, const WideCount<K>& count) {
    Open& o = open_[part];
    if (o.used + room_for(count) > kBlockBytes + kSlack) [[unlikely]] {
      if (!open_block(o)) return false;
    }
    std::uint8_t* at = o.block->bytes + o.used;
    // A part's next successors go to a line no one has written yet: asking for it as the
    // first successor of a line is written (no successor is shorter than 9 bytes) overlaps
    // the miss with the work before that part's next add.
    if ((reinterpret_cast<std::uintptr_t>(at) & 63) < 9) __builtin_prefetch(at + 64, 1);
    std::memcpy(at, &key, 8);
    const std::uint64_t low = count.limb[0];
    bool small = low < compact_detail::kTwoByteCounts;
    for (int i = 1; i < K; ++i) small = small && count.limb[static_cast<std::size_t>(i)] == 0;
    if (small) [[likely]] {  // a one-byte count's second byte is overwritten next
      o.used += static_cast<std::uint32_t>(8 + compact_detail::put_short_count(at + 8, low));
    } else {
      o.used =
          static_cast<std::uint32_t>(compact_detail::put_count<K>(at + 8, count) - o.block->bytes);
    }
    ++o.successors;
    return true;
  }

  // Calls f(entry) for every successor of `part` this thread holds, newest block first.
  template <class F>
  void for_each(std::size_t part, F&& f) const {
    const Open& o = open_[part];
    std::uint32_t used = o.used;
    for (const Block* b = o.block; b != nullptr; b = b->previous) {
      // The blocks of a part lie far apart: fetching the next one while this one is read
      // hides the miss that following `previous` would otherwise wait for.
      if (b->previous != nullptr) {
        const char* next = reinterpret_cast<const char*>(b->previous);
        for (std::size_t at = 0; at < sizeof(Block); at += 64) __builtin_prefetch(next + at);
      }
      const std::uint8_t* p = b->bytes;
      const std::uint8_t* end = b->bytes + used;
      Entry e;
      while (p != end) {
        std::memcpy(&e.key, p, 8);
        p += 8;
        // Counts of one or two bytes are 99.7% of 8x8 closed's. The second byte read for a
        // one-byte count is the next successor's, or the block's slack.
        if (compact_detail::is_short_count(*p)) [[likely]] {
          e.count = WideCount<K>{};
          e.count.limb[0] = compact_detail::get_short_count(p);
        } else {
          [[maybe_unused]] const bool read = compact_detail::get_count<K>(p, end, e.count);
          assert(read);
        }
        f(e);
      }
      if (b->previous != nullptr) used = b->previous->used;
    }
  }
  // Successors of `part` this thread holds.
  std::uint64_t successors(std::size_t part) const { return open_[part].successors; }
  // Successors of every part this thread holds.
  std::uint64_t successors() const {
    std::uint64_t n = 0;
    for (const Open& o : open_) n += o.successors;
    return n;
  }
  // Bytes of chunks held (what the budget counts for them).
  std::uint64_t bytes() const { return chunks_.size() * budget_->chunk_bytes(); }
  // Bytes of successors written (without the blocks' headers and unfilled ends).
  std::uint64_t written_bytes() const { return written_ + open_bytes(); }

  // Forgets every successor and gives the chunks back to the budget (for reuse).
  void clear() {
    for (Block* chunk : chunks_) budget_->give_chunk(chunk);
    chunks_.clear();
    next_block_ = 0;
    written_ = 0;
    std::fill(open_.begin(), open_.end(), Open{});
  }

 private:
  struct Open {
    Block* block = nullptr;
    std::uint64_t successors = 0;      // in the part's list
    std::uint32_t used = kBlockBytes;  // bytes used in `block` (none yet: full, so add opens one)
  };
  // The bytes put_count may write for `count` after its key: its first bytes and whole limbs
  // (a successor of 64 bits: the widest, so that the test costs nothing).
  static std::size_t room_for(const WideCount<K>& count) {
    if constexpr (K == 1) {
      return kMaxEntry;
    } else {
      int top = K;
      while (top > 1 && count.limb[static_cast<std::size_t>(top - 1)] == 0) --top;
      return 8 + 2 + 8 * static_cast<std::size_t>(top);
    }
  }
  std::uint64_t open_bytes() const {
    std::uint64_t n = 0;
    for (const Open& o : open_) n += o.block != nullptr ? o.used : 0;
    return n;
  }

  // Starts a new block for part `o`; false when a new chunk does not fit the budget.
  [[gnu::noinline]] bool open_block(Open& o) {
    if (next_block_ == chunk_blocks_ || chunks_.empty()) {
      // Raw storage: blocks are written before they are read, so nothing is zeroed.
      auto* chunk = static_cast<Block*>(budget_->take_chunk());
      if (chunk == nullptr) return false;
      chunks_.push_back(chunk);
      next_block_ = 0;
    }
    if (o.block != nullptr) {
      o.block->used = o.used;
      written_ += o.used;
    }
    Block* fresh = chunks_.back() + next_block_++;
    fresh->previous = o.block;
    o.block = fresh;
    o.used = 0;
    return true;
  }
  std::vector<Open> open_;
  std::vector<Block*> chunks_;  // taken from the budget, given back by clear()
  std::size_t next_block_ = 0;
  std::uint64_t written_ = 0;  // bytes of successors in blocks no longer open
  MemoryBudget* budget_;
  std::size_t chunk_blocks_;  // blocks in one of the budget's chunks
};

}  // namespace knightstour
