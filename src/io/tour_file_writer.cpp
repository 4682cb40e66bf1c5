#include "knightstour/io/tour_file_writer.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/npy.hpp"

namespace knightstour {

namespace {

void check_zstd(std::size_t code, const std::filesystem::path& path) {
  if (ZSTD_isError(code)) {
    throw IoError("zstd compression failed for " + path.string() + ": " + ZSTD_getErrorName(code));
  }
}

// The path of the file to publish, once it is known not to be a device or a pipe that the
// rename would replace (before the temporary file is made beside it).
const std::filesystem::path& replaceable(const std::filesystem::path& path) {
  check_replaceable(path);
  return path;
}

}  // namespace

TourFileWriter::TourFileWriter(std::filesystem::path final_path, BoardShape shape,
                               TourFormat format, Compression compression)
    : final_path_(std::move(final_path)),
      temp_path_(replaceable(final_path_).string() + kTempSuffix),
      encoder_(shape, format),
      raw_rows_(format == TourFormat::npy && npy_item_size(shape.squares()) == 1),
      row_bytes_(static_cast<std::size_t>(shape.squares())),
      compression_(compression),
      file_(temp_path_, O_WRONLY | O_CREAT | O_TRUNC),
      buffer_(new char[kBufferBytes]) {
  if (compression_ == Compression::zstd) {
    zstd_ = ZSTD_createCCtx();
    if (!zstd_) throw std::bad_alloc();
    // Level 3 (zstd's default): tours of one prefix share long beginnings and compress ~10x.
    check_zstd(ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, 3), final_path_);
  }
  const auto header = header_bytes(0);
  file_.write_all(header.data(), header.size());
  written_ = static_cast<off_t>(header.size());
  checkpoint_offset_ = written_;
}

TourFileWriter::~TourFileWriter() {
  if (!done_) {
    try {
      abandon();
    } catch (...) {
      // a destructor must not throw; the .tmp file is cleaned on resume
    }
  }
  if (zstd_) ZSTD_freeCCtx(zstd_);
}

std::string TourFileWriter::header_bytes(std::uint64_t rows) const {
  std::string header = encoder_.header(rows);
  if (header.empty() || compression_ == Compression::none) return header;
  return zstd_raw_frame(header);
}

void TourFileWriter::append_bytes(const char* data, std::size_t size) {
  if (length_ + size + kSlack > kBufferBytes) flush_buffer(false);
  if (size + kSlack > kBufferBytes) {  // one huge tour (a find on a vast board)
    emit(data, size, false);
    return;
  }
  std::memcpy(buffer_.get() + length_, data, size);
  length_ += size;
}

void TourFileWriter::flush_buffer(bool end_frame) {
  emit(buffer_.get(), length_, end_frame);
  length_ = 0;
}

void TourFileWriter::start_writeback() {
  // Ask the kernel to start writing what we have so far, so the fsync in finish() finds
  // most of the file already on disk instead of writing it all at once.
  if (written_ - writeback_offset_ >= kWritebackBytes) {
    ::sync_file_range(file_.fd(), writeback_offset_, written_ - writeback_offset_,
                      SYNC_FILE_RANGE_WRITE);
    writeback_offset_ = written_;
  }
}

void TourFileWriter::emit(const char* data, std::size_t size, bool end_frame) {
  if (compression_ == Compression::none) {
    file_.write_all(data, size);
    written_ += static_cast<off_t>(size);
    start_writeback();
    return;
  }
  ZSTD_inBuffer in{data, size, 0};
  const auto mode = end_frame ? ZSTD_e_end : ZSTD_e_continue;
  compressed_.resize(ZSTD_CStreamOutSize());
  while (true) {
    ZSTD_outBuffer out{compressed_.data(), compressed_.size(), 0};
    const std::size_t left = ZSTD_compressStream2(zstd_, &out, &in, mode);
    check_zstd(left, final_path_);
    file_.write_all(compressed_.data(), out.pos);
    written_ += static_cast<off_t>(out.pos);
    if (end_frame ? left == 0 : in.pos == in.size) break;
  }
  start_writeback();
}

void TourFileWriter::checkpoint() {
  if (tours_ == checkpoint_tours_) return;
  flush_buffer(true);
  checkpoint_offset_ = written_;
  checkpoint_tours_ = tours_;
}

void TourFileWriter::rollback() {
  length_ = 0;
  if (zstd_) ZSTD_CCtx_reset(zstd_, ZSTD_reset_session_only);
  if (written_ != checkpoint_offset_) {
    file_.truncate(checkpoint_offset_);
    written_ = checkpoint_offset_;
    writeback_offset_ = std::min(writeback_offset_, written_);
  }
  tours_ = checkpoint_tours_;
}

void TourFileWriter::finish() {
  checkpoint();
  const auto header = header_bytes(tours_);
  if (!header.empty()) file_.pwrite_all(header.data(), header.size(), 0);
  file_.sync();
  file_.close();
  renamed_ = true;  // from here on the file may be at its final path
  durable_rename(temp_path_, final_path_);
  done_ = true;
}

void TourFileWriter::abandon() {
  done_ = true;
  ::unlink(temp_path_.c_str());  // first: closing after a failed write may fail too
  if (renamed_) ::unlink(final_path_.c_str());
  try {
    file_.close();
  } catch (const IoError&) {
    // the data is being thrown away; nothing was published
  }
}

}  // namespace knightstour
