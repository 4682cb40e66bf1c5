#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_format.hpp"

// zstd's context, defined in <zstd.h> (kept out of this header).
struct ZSTD_DCtx_s;

namespace knightstour {

// The format of a tour file, from its name: tours-0-3.npy, .txt, .board, each maybe + .zst.
// Throws FormatError for other names.
struct TourFileType {
  TourFormat format;
  Compression compression;
};
TourFileType tour_file_type(const std::filesystem::path& path);

// Bytes of a file, decompressed when it is zstd; a truncated or corrupt zstd stream is a
// FormatError.
class ByteSource {
 public:
  ByteSource(const std::filesystem::path& path, Compression compression);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  std::size_t read(char* out, std::size_t size);  // fills out fully unless at the end

 private:
  std::size_t read_raw(char* out, std::size_t size);
  PosixFile file_;
  Compression compression_;
  ::ZSTD_DCtx_s* zstd_ = nullptr;
  std::string in_;
  std::size_t in_pos_ = 0;
  std::size_t last_hint_ = 0;
  bool eof_ = false;
};

// Streams the tours of one file of any format. Square numbers are validated against the
// board size; whether a row is a real tour is verify's business.
class TourFileReader {
 public:
  TourFileReader(const std::filesystem::path& path, BoardShape shape);

  // Reads the next tour into `tour` (shape.squares() entries); false at the end.
  // Throws FormatError "file: row N: reason" for unreadable content.
  bool next(std::vector<std::uint32_t>& tour);

  std::uint64_t rows_read() const { return rows_; }
  // For .npy: the row count the header declares.
  std::optional<std::uint64_t> declared_rows() const { return declared_; }
  // For .npy: the bytes before the first row and the bytes of one square, from the header.
  std::size_t header_size() const { return header_size_; }
  int item_size() const { return item_size_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  bool next_npy(std::vector<std::uint32_t>& tour);
  bool next_text(std::vector<std::uint32_t>& tour);
  bool next_board(std::vector<std::uint32_t>& tour);
  bool read_line(std::string& line);
  [[noreturn]] void fail(const std::string& why) const;

  std::filesystem::path path_;
  BoardShape shape_;
  TourFileType type_;
  ByteSource source_;
  std::optional<std::uint64_t> declared_;
  int item_size_ = 1;
  std::size_t header_size_ = 0;
  std::uint64_t rows_ = 0;
  std::string buffer_;
  std::size_t pos_ = 0;
  bool at_end_ = false;
  std::string line_;
  std::string row_;
};

// The board of a text or board file, read off its first tour (a tour covers every square);
// nothing for .npy files, whose header only gives the number of squares.
std::optional<BoardShape> infer_board_shape(const std::filesystem::path& path);

}  // namespace knightstour
