#pragma once

#include <zstd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "knightstour/posix_file.hpp"
#include "knightstour/tour_encoder.hpp"

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
      if (raw_rows_) {  // .npy with one byte per square: the row is the bytes
        buffer_.append(reinterpret_cast<const char*>(tour), row_bytes_);
      } else {
        encoder_.append(tour, buffer_);
      }
    } else {
      encoder_.append(tour, buffer_);
    }
    ++tours_;
    if (buffer_.size() >= kBufferBytes) flush_buffer(false);
  }

  void checkpoint();
  void rollback();
  void finish();   // publishes the file with the tours up to now
  void abandon();  // deletes the temporary file

  std::uint64_t tours() const { return tours_; }
  std::uint64_t checkpoint_tours() const { return checkpoint_tours_; }
  std::uint64_t bytes() const { return static_cast<std::uint64_t>(written_) + buffer_.size(); }
  const std::filesystem::path& final_path() const { return final_path_; }

 private:
  static constexpr std::size_t kBufferBytes = 1 << 20;
  void flush_buffer(bool end_frame);
  std::string header_bytes(std::uint64_t rows) const;

  std::filesystem::path final_path_;
  std::filesystem::path temp_path_;
  TourEncoder encoder_;
  bool raw_rows_;
  std::size_t row_bytes_;
  Compression compression_;
  PosixFile file_;
  std::string buffer_;
  std::string compressed_;
  ZSTD_CCtx* zstd_ = nullptr;
  off_t written_ = 0;
  off_t checkpoint_offset_ = 0;
  std::uint64_t tours_ = 0;
  std::uint64_t checkpoint_tours_ = 0;
  bool done_ = false;
};

}  // namespace knightstour
