#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// A file mapped read-only into memory. Its pages are clean: the kernel reads them in as the
// sweep walks the classes and drops them again under memory pressure, so a mapped
// generation costs disk and page cache, not the memory budget. Unmapped when the last
// holder lets go.
class SpillMapping {
 public:
  SpillMapping(const std::filesystem::path& path, std::uint64_t bytes);
  ~SpillMapping();
  SpillMapping(const SpillMapping&) = delete;
  SpillMapping& operator=(const SpillMapping&) = delete;

  const std::byte* data() const { return data_; }
  std::uint64_t size() const { return size_; }

 private:
  const std::byte* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// A generation (or part of one) being written to disk: arrays appended one after another,
// then mapped back. The file is unlinked once mapped (its blocks are freed at the unmap), so
// a spill leaves nothing behind when the sweep moves on.
class SpillFile {
 public:
  explicit SpillFile(std::filesystem::path path);
  // Appends `bytes` bytes (a multiple of 8); returns the offset they start at.
  std::uint64_t append(const void* data, std::uint64_t bytes);
  std::uint64_t size() const { return size_; }
  // Closes the file, maps it and unlinks it. Call once, after the last append.
  std::shared_ptr<const SpillMapping> map();

 private:
  std::filesystem::path path_;
  PosixFile file_;
  std::uint64_t size_ = 0;
};

// Where a sweep spills: a directory and a counter naming its files. An empty directory
// means the sweep may not spill (it stops at its memory budget instead).
class SpillArea {
 public:
  SpillArea() = default;
  explicit SpillArea(std::filesystem::path directory) : directory_(std::move(directory)) {}
  bool enabled() const { return !directory_.empty(); }
  SpillFile create();
  // A file open for reading and writing whose name is already gone: its blocks are freed
  // when it is closed, or when the process dies.
  PosixFile scratch();
  std::uint64_t bytes_written() const { return written_.load(); }
  // Safe from several threads at once (successor files are written by all of them).
  void count_written(std::uint64_t bytes) { written_.fetch_add(bytes, std::memory_order_relaxed); }

 private:
  std::filesystem::path directory_;
  std::uint64_t next_ = 0;
  std::atomic<std::uint64_t> written_{0};
};

}  // namespace knightstour
