#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_encoder.hpp"

// zstd's context, defined in <zstd.h> (kept out of this header).
struct ZSTD_CCtx_s;

namespace knightstour {

// Writes one tour file under a temporary name and publishes it with finish(): final header,
// fsync, rename, fsync of the directory. Until then the file is invisible to readers and a
// crash leaves only a ".tmp" file behind.
//
// checkpoint() marks a safe point and rollback() drops every tour after it, so the tours of
// a prefix whose search was interrupted never reach the finished file. With zstd each
// checkpoint ends a zstd frame (concatenated frames decompress as one stream).
class TourFileWriter {
 public:
  TourFileWriter(std::filesystem::path final_path, BoardShape shape, TourFormat format,
                 Compression compression);
  ~TourFileWriter();  // abandons an unfinished file
  TourFileWriter(const TourFileWriter&) = delete;
  TourFileWriter& operator=(const TourFileWriter&) = delete;

  template <class Square>
  void add(const Square* tour) {
    if constexpr (sizeof(Square) == 1) {
      if (raw_rows_) {
        std::memcpy(row_slot(), tour, row_bytes_);
        commit_row();
        return;
      }
    }
    scratch_.clear();
    encoder_.append(tour, scratch_);
    append_bytes(scratch_.data(), scratch_.size());
    ++tours_;
  }

  // For .npy files with one byte per square (every board up to 64 squares): the caller
  // writes the row's bytes at row_slot() (up to 64 bytes may be written there) and then
  // calls commit_row(). Saves a copy per tour on the hottest output path.
  bool raw_rows() const { return raw_rows_; }
  std::uint8_t* row_slot() {
    if (length_ + kSlack > kBufferBytes) flush_buffer(false);
    return reinterpret_cast<std::uint8_t*>(buffer_.get() + length_);
  }
  void commit_row() {
    length_ += row_bytes_;
    ++tours_;
  }

  void checkpoint();
  void rollback();
  void finish();  // publishes the file with the tours up to now
  // Deletes the file: the temporary one, and also the published one once finish() began (a
  // file whose prefixes could not be journaled must not stay behind in a run directory).
  void abandon();

  std::uint64_t tours() const { return tours_; }
  std::uint64_t checkpoint_tours() const { return checkpoint_tours_; }
  std::uint64_t bytes() const { return static_cast<std::uint64_t>(written_) + length_; }
  const std::filesystem::path& final_path() const { return final_path_; }

 private:
  static constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
  static constexpr std::size_t kSlack = 64;
  static constexpr off_t kWritebackBytes = off_t{8} << 20;
  void start_writeback();
  void append_bytes(const char* data, std::size_t size);
  void flush_buffer(bool end_frame);
  void emit(const char* data, std::size_t size, bool end_frame);
  std::string header_bytes(std::uint64_t rows) const;

  std::filesystem::path final_path_;
  std::filesystem::path temp_path_;
  TourEncoder encoder_;
  bool raw_rows_;
  std::size_t row_bytes_;
  Compression compression_;
  PosixFile file_;
  std::unique_ptr<char[]> buffer_;
  std::size_t length_ = 0;
  std::string scratch_;
  std::string compressed_;
  ::ZSTD_CCtx_s* zstd_ = nullptr;
  off_t written_ = 0;
  off_t checkpoint_offset_ = 0;
  off_t writeback_offset_ = 0;
  std::uint64_t tours_ = 0;
  std::uint64_t checkpoint_tours_ = 0;
  bool done_ = false;
  bool renamed_ = false;  // finish() got as far as the rename
};

}  // namespace knightstour
