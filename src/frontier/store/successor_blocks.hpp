#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

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
// Memory: every successor is held (8 + 8K bytes) until its part is aggregated; chunks are
// reserved in the budget, and `add` fails (the caller stops or splits the pass) when the
// budget is exhausted.
template <int K>
class SuccessorBlocks {
 public:
  // Successors per block: about 512 bytes of them, at least 4.
  static constexpr int kBlockSize = std::max(4, 512 / (8 + 8 * K));

  struct Entry {
    std::uint64_t key;
    WideCount<K> count;
  };
  // The entries of a part's blocks. Every block but the part's open one is full, so a block
  // holds no size: the open block's lives with the part's open state.
  struct Block {
    const Block* previous;  // the part's block filled before this one (this thread)
    alignas(16) Entry entries[kBlockSize];
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
  bool add(std::size_t part, std::uint64_t key, const WideCount<K>& count) {
    Open& o = open_[part];
    if (o.size == kBlockSize) [[unlikely]] {
      if (!open_block(o)) return false;
    }
    Entry* at = o.block->entries + o.size++;
    // A part's next entries go to a line no one has written yet: asking for it now, as its
    // first entry is written, overlaps the miss with the work before that part's next add.
    if (reinterpret_cast<std::uintptr_t>(at) % 64 < sizeof(Entry))
      __builtin_prefetch(reinterpret_cast<const char*>(at) + 64, 1);
    *at = Entry{key, count};
    return true;
  }

  // Calls f(entry) for every successor of `part` this thread holds, newest block first.
  template <class F>
  void for_each(std::size_t part, F&& f) const {
    const Open& o = open_[part];
    int size = o.block == nullptr ? 0 : o.size;
    for (const Block* b = o.block; b != nullptr; b = b->previous, size = kBlockSize) {
      // The blocks of a part lie far apart: fetching the next one while this one is read
      // hides the miss that following `previous` would otherwise wait for.
      if (b->previous != nullptr) {
        const char* next = reinterpret_cast<const char*>(b->previous);
        for (std::size_t at = 0; at < sizeof(Block); at += 64) __builtin_prefetch(next + at);
      }
      for (int i = 0; i < size; ++i) f(b->entries[i]);
    }
  }
  // Successors of `part` this thread holds: every block but the open one is full.
  std::uint64_t successors(std::size_t part) const {
    const Open& o = open_[part];
    return o.blocks == 0 ? 0 : (o.blocks - 1) * std::uint64_t{kBlockSize} + o.size;
  }
  // Successors of every part this thread holds.
  std::uint64_t successors() const {
    std::uint64_t n = 0;
    for (std::size_t p = 0; p < open_.size(); ++p) n += successors(p);
    return n;
  }
  // Bytes of chunks held (what the budget counts for them).
  std::uint64_t bytes() const { return chunks_.size() * budget_->chunk_bytes(); }

  // Forgets every successor and gives the chunks back to the budget (for reuse).
  void clear() {
    for (Block* chunk : chunks_) budget_->give_chunk(chunk);
    chunks_.clear();
    next_block_ = 0;
    std::fill(open_.begin(), open_.end(), Open{});
  }

 private:
  struct Open {
    Block* block = nullptr;
    std::uint64_t blocks = 0;  // in the part's list
    int size = kBlockSize;     // entries in `block` (none yet: full, so that add opens one)
  };

  // Starts a new block for part `o`; false when a new chunk does not fit the budget.
  [[gnu::noinline]] bool open_block(Open& o) {
    if (next_block_ == chunk_blocks_ || chunks_.empty()) {
      // Raw storage: blocks are written before they are read, so nothing is zeroed.
      auto* chunk = static_cast<Block*>(budget_->take_chunk());
      if (chunk == nullptr) return false;
      chunks_.push_back(chunk);
      next_block_ = 0;
    }
    Block* fresh = chunks_.back() + next_block_++;
    fresh->previous = o.block;
    o.block = fresh;
    o.size = 0;
    ++o.blocks;
    return true;
  }
  std::vector<Open> open_;
  std::vector<Block*> chunks_;  // taken from the budget, given back by clear()
  std::size_t next_block_ = 0;
  MemoryBudget* budget_;
  std::size_t chunk_blocks_;  // blocks in one of the budget's chunks
};

}  // namespace knightstour
