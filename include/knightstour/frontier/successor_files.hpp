#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "knightstour/frontier/memory_budget.hpp"
#include "knightstour/frontier/spill.hpp"
#include "knightstour/frontier/successor_blocks.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// The successors of a step too large for memory, written once to disk, one file per range
// of the next generation's parts, then read back a range at a time (write-once partitioned
// spill).
//
// Why: a step that does not fit used to expand the whole generation once per range (a pass
// keeping one range's successors), so a step in five ranges paid five expansions (8x8
// closed: 2.3 expansions a class over the run). Here the generation is expanded once; each
// successor costs 8 + 8K bytes written and read back front to back instead.
//
// No lock: a writer fills a buffer per range and appends a full buffer at an offset taken
// from the range's end with one fetch_add (pwrite), so threads (and their order) never wait
// for each other; the files' contents are the same multiset of successors whatever the order.
// The files are unlinked at creation: nothing is left behind, even by a crash.
class SuccessorFiles {
 public:
  SuccessorFiles(SpillArea& area, std::size_t ranges);
  std::size_t ranges() const { return files_.size(); }

  // Appends `bytes` bytes to range r's file. Safe from any number of threads at once.
  void append(std::size_t r, const void* data, std::uint64_t bytes);
  // Bytes in range r's file (once every writer has flushed).
  std::uint64_t bytes(std::size_t r) const { return files_[r]->end.load(); }
  // Reads `bytes` bytes of range r's file at `offset`.
  void read(std::size_t r, std::uint64_t offset, void* data, std::uint64_t bytes) const;
  // Frees range r's disk blocks and page cache (once it is read for good).
  void drop(std::size_t r);

 private:
  struct File {
    PosixFile file;
    std::atomic<std::uint64_t> end{0};
  };
  std::vector<std::unique_ptr<File>> files_;
  SpillArea& area_;
};

// One thread's buffers of successors, one per range; full buffers go to the range's file.
template <int K>
class SuccessorWriter {
 public:
  using Entry = typename SuccessorBlocks<K>::Entry;

  // `range_of[p]`: the range of part p; `buffer_entries` a buffer, whose bytes the budget is
  // charged for (they must be held whatever the limit, and are few).
  SuccessorWriter(SuccessorFiles& files, const std::vector<std::uint32_t>& range_of,
                  std::size_t buffer_entries, MemoryBudget& budget)
      : files_(&files),
        range_of_(&range_of),
        capacity_(buffer_entries),
        buffers_(files.ranges()),
        budget_(&budget) {
    for (auto& b : buffers_) b.entries = std::make_unique_for_overwrite<Entry[]>(capacity_);
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
  std::uint64_t held() const { return buffers_.size() * capacity_ * sizeof(Entry); }
  void write(std::size_t r) {
    Buffer& b = buffers_[r];
    if (b.size == 0) return;
    files_->append(r, b.entries.get(), b.size * sizeof(Entry));
    written_ += b.size;
    b.size = 0;
  }

  SuccessorFiles* files_;
  const std::vector<std::uint32_t>* range_of_;
  std::size_t capacity_;
  std::vector<Buffer> buffers_;
  MemoryBudget* budget_;
  std::uint64_t written_ = 0;
};

}  // namespace knightstour
