#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "frontier/class/frontier_class.hpp"
#include "frontier/store/class_buffer.hpp"
#include "frontier/store/compact_classes.hpp"
#include "frontier/store/key_sort.hpp"
#include "frontier/store/memory_budget.hpp"
#include "frontier/store/spill.hpp"
#include "frontier/store/successor_blocks.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// The successors of a step too large for memory, written once to disk, one file per range
// of the next generation's parts, then read back a range at a time (write-once partitioned
// spill).
//
// Why: a step that does not fit used to expand the whole generation once per range (a pass
// keeping one range's successors), so a step in five ranges paid five expansions (8x8
// closed: 2.3 expansions a class over the run). Here the generation is expanded once; each
// successor is written and read back front to back instead.
//
// A file is a sequence of records, each a writer's full buffer of successors sorted by type
// pattern and key, equal keys merged, in the compact form of classes (compact_classes.hpp):
//   u32 blocks, u32 bytes of each block, then the blocks.
// Sorted, a record's keys fall in runs of one pattern that differ in a few bits, so a
// successor takes a few bytes instead of 8 + 8K: the widest steps of 8x8 open units are
// bounded by this disk (docs/speed.md (compact-successors.md)).
//
// No lock on the data: a writer appends a whole record at an offset taken from the range's
// end with one fetch_add (pwrite), so threads (and their order) never wait for each other;
// only the record's place in the range's index is kept under a lock, once a record. The
// files' contents are the same multiset of successors whatever the order. The files are
// unlinked at creation: nothing is left behind, even by a crash.
class SuccessorFiles {
 public:
  // Where a record lies in its range's file.
  struct Record {
    std::uint64_t offset, bytes;
  };
  // A record's first bytes: its blocks.
  static constexpr std::size_t kHeaderBytes = 4;

  SuccessorFiles(SpillArea& area, std::size_t ranges);
  std::size_t ranges() const { return files_.size(); }

  // Appends a record of `bytes` bytes, of `successors` successors before merging, to range
  // r's file. Safe from any number of threads at once.
  void append(std::size_t r, const void* data, std::uint64_t bytes, std::uint64_t successors);
  // Bytes in range r's file (once every writer has flushed).
  std::uint64_t bytes(std::size_t r) const { return files_[r]->end.load(); }
  // Successors written to range r before merging (once every writer has flushed).
  std::uint64_t successors(std::size_t r) const { return files_[r]->successors.load(); }
  // Range r's records, in no particular order (once every writer has flushed).
  const std::vector<Record>& records(std::size_t r) const { return files_[r]->records; }
  // Reads `bytes` bytes of range r's file at `offset`.
  void read(std::size_t r, std::uint64_t offset, void* data, std::uint64_t bytes) const;
  // Frees range r's disk blocks and page cache (once it is read for good).
  void drop(std::size_t r);

 private:
  struct File {
    PosixFile file;
    std::atomic<std::uint64_t> end{0};
    std::atomic<std::uint64_t> successors{0};
    std::mutex lock;  // of `records`
    std::vector<Record> records;
  };
  std::vector<std::unique_ptr<File>> files_;
  SpillArea& area_;
};

// Calls f(key, count) for every successor of record `record` of range r, in the record's
// order. `buffer` holds the record's bytes and a block's classes. Throws std::runtime_error
// when the record is malformed.
template <int K, class F>
void read_successor_record(const SuccessorFiles& files, std::size_t r,
                           const SuccessorFiles::Record& record, ClassBuffer<K>& buffer, F&& f) {
  constexpr std::size_t kHeader = SuccessorFiles::kHeaderBytes;
  if (record.bytes < kHeader) throw std::runtime_error("a record of successors is malformed");
  std::uint8_t* data = buffer.room_for(record.bytes);
  files.read(r, record.offset, data, record.bytes);
  std::uint32_t blocks = 0;
  std::memcpy(&blocks, data, 4);
  const std::uint64_t sizes = kHeader + 4 * std::uint64_t{blocks};
  if (sizes > record.bytes) throw std::runtime_error("a record of successors is malformed");
  buffer.ensure();
  std::uint64_t at = sizes;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    std::uint32_t n = 0;
    std::memcpy(&n, data + kHeader + 4 * std::uint64_t{b}, 4);
    if (n > record.bytes - at) throw std::runtime_error("a record of successors is malformed");
    // A block is followed by the next block's bytes or the buffer's padding: the decoder
    // may read past it.
    const std::size_t classes =
        CompactClasses::decode_block<K>(data + at, n, buffer.keys.data(), buffer.counts.data());
    for (std::size_t i = 0; i < classes; ++i) f(buffer.keys[i], buffer.counts[i]);
    at += n;
  }
  if (at != record.bytes) throw std::runtime_error("a record of successors is malformed");
}

// One thread's buffers of successors, one per range; a full buffer is sorted, merged and
// written to its range's file as one record.
template <int K>
class SuccessorWriter {
 public:
  using Entry = typename SuccessorBlocks<K>::Entry;

  // `range_of[p]`: the range of part p; `buffer_entries` a buffer, whose bytes the budget is
  // charged for (they must be held whatever the limit, and are few), with the room to encode
  // one; `slots`: the classes' slots (their type pattern groups a record's keys).
  SuccessorWriter(SuccessorFiles& files, const std::vector<std::uint32_t>& range_of,
                  std::size_t buffer_entries, int slots, MemoryBudget& budget)
      : files_(&files),
        range_of_(&range_of),
        capacity_(buffer_entries),
        slots_(slots),
        buffers_(files.ranges()),
        budget_(&budget) {
    for (auto& b : buffers_) b.entries = std::make_unique_for_overwrite<Entry[]>(capacity_);
    scratch_ = std::make_unique_for_overwrite<Entry[]>(capacity_);
    budget_->charge(held());
  }
  SuccessorWriter(const SuccessorWriter&) = delete;
  SuccessorWriter& operator=(const SuccessorWriter&) = delete;
  ~SuccessorWriter() { budget_->release(held()); }

  void add(std::size_t part, std::uint64_t key, const WideCount<K>& count) {
    const std::size_t r = (*range_of_)[part];
    Buffer& b = buffers_[r];
    b.entries[b.size++] = Entry{key, count};
    if (b.size == capacity_) write(r);
  }
  // Writes what the buffers hold. Call once the thread is done adding.
  void flush() {
    for (std::size_t r = 0; r < buffers_.size(); ++r) write(r);
  }
  std::uint64_t successors() const { return written_; }

 private:
  struct Buffer {
    std::unique_ptr<Entry[]> entries;
    std::size_t size = 0;
  };
  // The buffers, the sort's scratch, and the encoder's: the record (at most about a
  // buffer's bytes, twice while it grows) and its copy.
  std::uint64_t held() const { return (buffers_.size() + 4) * capacity_ * sizeof(Entry); }

  void write(std::size_t r) {
    Buffer& b = buffers_[r];
    if (b.size == 0) return;
    // Sorted with the type bits (the low 2 * slots bits of a key) on top: keys of one type
    // pattern lie together, and equal keys next to each other.
    const int turn = 2 * slots_;
    Entry* first = b.entries.get();
    Entry* last = first + b.size;
    for (Entry* e = first; e != last; ++e) e->key = std::rotr(e->key, turn);
    sort_by_key(first, b.size, scratch_.get());
    for (Entry* e = first; e != last; ++e) e->key = std::rotl(e->key, turn);
    for (const Entry* e = first; e != last;) {
      Entry sum = *e++;
      // Equal keys are merged unless their sum outgrows K limbs (then kept apart: the
      // aggregation sees the overflow as it would have).
      while (e != last && e->key == sum.key) {
        WideCount<K> merged = sum.count;
        if (merged.add(e->count)) break;
        sum.count = merged;
        ++e;
      }
      encoder_.add(sum.key, type_pattern(sum.key, slots_), sum.count);
    }
    const CompactClasses done = encoder_.finish();
    const std::uint64_t blocks = done.blocks();
    const std::uint64_t bytes = SuccessorFiles::kHeaderBytes + 4 * blocks + done.byte_size();
    record_.resize(bytes);
    const auto block_count = static_cast<std::uint32_t>(blocks);
    std::memcpy(record_.data(), &block_count, 4);
    for (std::size_t i = 0; i < blocks; ++i) {
      const auto n = static_cast<std::uint32_t>(done.block_bytes(i));
      std::memcpy(record_.data() + SuccessorFiles::kHeaderBytes + 4 * i, &n, 4);
    }
    std::memcpy(record_.data() + SuccessorFiles::kHeaderBytes + 4 * blocks, done.bytes.data(),
                done.byte_size());
    files_->append(r, record_.data(), bytes, b.size);
    written_ += b.size;
    b.size = 0;
  }

  SuccessorFiles* files_;
  const std::vector<std::uint32_t>* range_of_;
  std::size_t capacity_;
  int slots_;
  std::vector<Buffer> buffers_;
  MemoryBudget* budget_;
  std::unique_ptr<Entry[]> scratch_;  // for sort_by_key
  CompactWriter<K> encoder_;
  std::vector<std::uint8_t> record_;
  std::uint64_t written_ = 0;
};

}  // namespace knightstour
