#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// A file of classes open for reading: a spilled generation, or a checkpoint being resumed
// from. Readers copy what they need with pread into buffers of their own (ClassBuffer), a
// chunk at a time, front to back; the file is never mapped, so its pages stay in the page
// cache, where the kernel drops them under pressure, and never count as the process's
// resident memory (mapped, the spill files of the 8x8 closed count in 11 GiB had put 4.6 GB
// of page cache into it). Closed when the last holder lets go; a spill file's name is already
// gone, so its blocks are freed then.
class ClassFile {
 public:
  ClassFile(PosixFile file, std::uint64_t bytes);
  // Opens the file at `path` for reading (its size at that moment).
  explicit ClassFile(const std::filesystem::path& path);
  ClassFile(const ClassFile&) = delete;
  ClassFile& operator=(const ClassFile&) = delete;

  std::uint64_t size() const { return size_; }
  // Reads exactly `bytes` bytes at `offset`; an IoError when the file is shorter.
  void read(void* out, std::uint64_t bytes, std::uint64_t offset) const;

 private:
  PosixFile file_;
  std::uint64_t size_ = 0;
};

// A generation (or part of one) being written to disk: arrays appended one after another,
// then read back. The file's name is removed when it is created, so a spill leaves nothing
// behind, even after a crash, and its blocks are freed when the sweep lets it go.
class SpillFile {
 public:
  explicit SpillFile(PosixFile file) : file_(std::move(file)) {}
  // Appends `bytes` bytes (a multiple of 8); returns the offset they start at.
  std::uint64_t append(const void* data, std::uint64_t bytes);
  std::uint64_t size() const { return size_; }
  // The file, for reading. Call once, after the last append.
  std::shared_ptr<const ClassFile> finish();

 private:
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
  SpillFile create() { return SpillFile(scratch("classes")); }
  // A file open for reading and writing whose name is already gone: its blocks are freed
  // when it is closed, or when the process dies.
  PosixFile scratch(const char* what = "successors");
  std::uint64_t bytes_written() const { return written_.load(); }
  // Safe from several threads at once (successor files are written by all of them).
  void count_written(std::uint64_t bytes) { written_.fetch_add(bytes, std::memory_order_relaxed); }

 private:
  std::filesystem::path directory_;
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::uint64_t> written_{0};
};

}  // namespace knightstour
