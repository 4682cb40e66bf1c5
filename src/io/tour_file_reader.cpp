#include "knightstour/io/tour_file_reader.hpp"

#include <fcntl.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/npy.hpp"

namespace knightstour {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

TourFileType tour_file_type(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  Compression compression = Compression::none;
  if (ends_with(name, ".zst")) {
    compression = Compression::zstd;
    name.resize(name.size() - 4);
  }
  if (ends_with(name, ".npy")) return {TourFormat::npy, compression};
  if (ends_with(name, ".txt")) return {TourFormat::text, compression};
  if (ends_with(name, ".board")) return {TourFormat::board, compression};
  throw FormatError(path.string() +
                    " is not a tour file (expected .npy, .txt or .board, maybe + .zst)");
}

ByteSource::ByteSource(const std::filesystem::path& path, Compression compression)
    : file_(path, O_RDONLY), compression_(compression) {
  if (compression_ == Compression::zstd) {
    zstd_ = ZSTD_createDCtx();
    if (!zstd_) throw std::bad_alloc();
    in_.resize(ZSTD_DStreamInSize());
    in_.resize(0);
  }
}

ByteSource::~ByteSource() {
  if (zstd_) ZSTD_freeDCtx(zstd_);
}

std::size_t ByteSource::read_raw(char* out, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const auto n = file_.read_some(out + got, size - got);
    if (n == 0) break;
    got += n;
  }
  return got;
}

std::size_t ByteSource::read(char* out, std::size_t size) {
  if (compression_ == Compression::none) return read_raw(out, size);
  std::size_t produced = 0;
  while (produced < size) {
    if (in_pos_ == in_.size() && !eof_) {
      in_.resize(1 << 17);
      in_.resize(read_raw(in_.data(), in_.size()));
      in_pos_ = 0;
      if (in_.empty()) eof_ = true;
    }
    if (in_pos_ == in_.size() && eof_) {
      if (last_hint_ == 0) break;  // the input ended at a frame boundary
      // The decoder may still hold output of the last frame; anything short of that frame's
      // end means the file was cut.
      ZSTD_outBuffer o{out + produced, size - produced, 0};
      ZSTD_inBuffer i{nullptr, 0, 0};
      const auto hint = ZSTD_decompressStream(zstd_, &o, &i);
      if (ZSTD_isError(hint))
        throw FormatError(file_.path().string() +
                          ": corrupt zstd data: " + ZSTD_getErrorName(hint));
      produced += o.pos;
      if (o.pos > 0) {
        last_hint_ = hint;
        continue;
      }
      throw FormatError(file_.path().string() + ": truncated zstd stream");
    }
    ZSTD_inBuffer i{in_.data(), in_.size(), in_pos_};
    ZSTD_outBuffer o{out + produced, size - produced, 0};
    const auto hint = ZSTD_decompressStream(zstd_, &o, &i);
    if (ZSTD_isError(hint))
      throw FormatError(file_.path().string() + ": corrupt zstd data: " + ZSTD_getErrorName(hint));
    last_hint_ = hint;
    in_pos_ = i.pos;
    produced += o.pos;
  }
  return produced;
}

TourFileReader::TourFileReader(const std::filesystem::path& path, BoardShape shape)
    : path_(path), shape_(shape), type_(tour_file_type(path)), source_(path, type_.compression) {
  if (type_.format == TourFormat::npy) {
    std::string head(10, '\0');
    if (source_.read(head.data(), 10) < 10) fail("truncated .npy header");
    if (head.compare(0, 6, "\x93NUMPY") != 0) fail("not a .npy file (no NUMPY magic)");
    std::size_t length = 0;
    if (head[6] == 1) {
      length = static_cast<unsigned char>(head[8]) |
               (static_cast<std::size_t>(static_cast<unsigned char>(head[9])) << 8);
    } else if (head[6] == 2 || head[6] == 3) {
      head.resize(12);
      if (source_.read(head.data() + 10, 2) < 2) fail("truncated .npy header");
      for (int i = 3; i >= 0; --i)
        length = (length << 8) | static_cast<unsigned char>(head[8 + static_cast<std::size_t>(i)]);
    }
    // The version and the length limit are parse_npy_header's to judge.
    length = std::min(length, kNpyMaxHeaderLength + 1);
    std::string rest(length, '\0');
    if (source_.read(rest.data(), length) < length) fail("truncated .npy header");
    std::size_t header_size = 0;
    NpyShape npy;
    try {
      npy = parse_npy_header(head + rest, header_size);
    } catch (const FormatError& e) {
      fail(e.what());
    }
    if (npy.cols != static_cast<std::uint64_t>(shape_.squares())) {
      fail("rows have " + std::to_string(npy.cols) + " squares, the " + shape_.name() +
           " board has " + std::to_string(shape_.squares()));
    }
    if (npy.item_size != npy_item_size(shape_.squares())) {
      // Accept any unsigned type wide enough; files this program writes use the smallest.
      if (npy.item_size < npy_item_size(shape_.squares())) fail("dtype too small for the board");
    }
    item_size_ = npy.item_size;
    header_size_ = header_size;
    declared_ = npy.rows;
  }
}

void TourFileReader::fail(const std::string& why) const {
  throw FormatError(path_.string() + ": " + why);
}

bool TourFileReader::next(std::vector<std::uint32_t>& tour) {
  tour.resize(static_cast<std::size_t>(shape_.squares()));
  switch (type_.format) {
    case TourFormat::npy:
      return next_npy(tour);
    case TourFormat::text:
      return next_text(tour);
    case TourFormat::board:
      return next_board(tour);
  }
  return false;
}

bool TourFileReader::next_npy(std::vector<std::uint32_t>& tour) {
  const std::size_t row_bytes =
      static_cast<std::size_t>(shape_.squares()) * static_cast<std::size_t>(item_size_);
  if (buffer_.size() - pos_ < row_bytes) {
    if (!at_end_) {
      buffer_.erase(0, pos_);
      pos_ = 0;
      const std::size_t want =
          std::max<std::size_t>(row_bytes, std::size_t{4} << 20);  // whole rows, ~4 MB at a time
      const std::size_t old = buffer_.size();
      buffer_.resize(old + want);
      const std::size_t got = source_.read(buffer_.data() + old, want);
      buffer_.resize(old + got);
      if (got < want) at_end_ = true;
    }
    if (buffer_.size() - pos_ < row_bytes) {
      if (buffer_.size() != pos_) {
        fail("truncated: row " + std::to_string(rows_) + " is incomplete (the header declares " +
             std::to_string(*declared_) + " rows)");
      }
      if (rows_ != *declared_) {
        fail("truncated: the header declares " + std::to_string(*declared_) +
             " rows, the file holds " + std::to_string(rows_));
      }
      return false;
    }
  }
  if (rows_ == *declared_) {
    fail("holds more data than the " + std::to_string(*declared_) + " rows its header declares");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + pos_);
  for (std::size_t i = 0; i < tour.size(); ++i) {
    std::uint32_t v = 0;
    for (int b = 0; b < item_size_; ++b)
      v |= static_cast<std::uint32_t>(
               p[i * static_cast<std::size_t>(item_size_) + static_cast<std::size_t>(b)])
           << (8 * b);
    tour[i] = v;
  }
  // As the text formats do: a square number past the board is unreadable content (callers
  // index arrays with them).
  const auto squares = static_cast<std::uint32_t>(shape_.squares());
  for (std::size_t i = 0; i < tour.size(); ++i) {
    if (tour[i] >= squares) {
      fail("row " + std::to_string(rows_) + ": square number " + std::to_string(tour[i]) +
           " is off the " + shape_.name() + " board");
    }
  }
  pos_ += row_bytes;
  ++rows_;
  return true;
}

bool TourFileReader::read_line(std::string& line) {
  line.clear();
  while (true) {
    const auto nl = buffer_.find('\n', pos_);
    if (nl != std::string::npos) {
      line.append(buffer_, pos_, nl - pos_);
      pos_ = nl + 1;
      return true;
    }
    line.append(buffer_, pos_, std::string::npos);
    buffer_.clear();
    pos_ = 0;
    if (at_end_) {
      if (!line.empty())
        fail("row " + std::to_string(rows_) + ": truncated (no newline at the end)");
      return false;
    }
    buffer_.resize(1 << 20);
    buffer_.resize(source_.read(buffer_.data(), buffer_.size()));
    if (buffer_.size() < (1u << 20)) at_end_ = true;
  }
}

bool TourFileReader::next_text(std::vector<std::uint32_t>& tour) {
  if (!read_line(line_)) return false;
  std::size_t i = 0;
  std::size_t start = 0;
  while (start <= line_.size()) {
    auto space = line_.find(' ', start);
    if (space == std::string::npos) space = line_.size();
    const std::string_view name(line_.data() + start, space - start);
    if (i >= tour.size())
      fail("row " + std::to_string(rows_) + ": more than " + std::to_string(tour.size()) +
           " squares");
    try {
      const auto rc = parse_row_col(shape_, name, "square");
      tour[i++] =
          static_cast<std::uint32_t>(static_cast<std::int64_t>(rc.row) * shape_.cols + rc.col);
    } catch (const UsageError& e) {
      fail("row " + std::to_string(rows_) + ": " + e.what());
    }
    start = space + 1;
  }
  if (i != tour.size()) {
    fail("row " + std::to_string(rows_) + ": " + std::to_string(i) + " squares, expected " +
         std::to_string(tour.size()));
  }
  ++rows_;
  return true;
}

bool TourFileReader::next_board(std::vector<std::uint32_t>& tour) {
  std::fill(tour.begin(), tour.end(), UINT32_MAX);
  for (int r = shape_.rows - 1; r >= 0; --r) {
    if (!read_line(line_)) {
      if (r == shape_.rows - 1) return false;
      fail("row " + std::to_string(rows_) + ": grid cut short");
    }
    const char* p = line_.data();
    const char* end = p + line_.size();
    for (int c = 0; c < shape_.cols; ++c) {
      while (p < end && *p == ' ') ++p;
      std::uint64_t number = 0;
      const auto [next, ec] = std::from_chars(p, end, number);
      if (ec != std::errc{} || number < 1 ||
          number > static_cast<std::uint64_t>(shape_.squares())) {
        fail("row " + std::to_string(rows_) + ": expected " + std::to_string(shape_.cols) +
             " move numbers 1-" + std::to_string(shape_.squares()) + " per line");
      }
      auto& slot = tour[number - 1];
      if (slot != UINT32_MAX)
        fail("row " + std::to_string(rows_) + ": move number " + std::to_string(number) +
             " appears twice");
      slot = static_cast<std::uint32_t>(static_cast<std::int64_t>(r) * shape_.cols + c);
      p = next;
    }
    while (p < end && *p == ' ') ++p;
    if (p != end) fail("row " + std::to_string(rows_) + ": too many numbers on a line");
  }
  if (!read_line(line_) || !line_.empty())
    fail("row " + std::to_string(rows_) + ": expected a blank line after the grid");
  ++rows_;
  return true;
}

std::optional<BoardShape> infer_board_shape(const std::filesystem::path& path) {
  const auto type = tour_file_type(path);
  if (type.format == TourFormat::npy) return std::nullopt;
  ByteSource source(path, type.compression);
  std::string head(1 << 16, '\0');
  head.resize(source.read(head.data(), head.size()));
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < head.size()) {
    const auto nl = head.find('\n', pos);
    if (nl == std::string::npos) break;
    lines.push_back(head.substr(pos, nl - pos));
    pos = nl + 1;
    if (type.format == TourFormat::text || lines.back().empty()) break;
  }
  if (lines.empty()) return std::nullopt;
  if (type.format == TourFormat::text) {
    int rows = 0, cols = 0;
    std::size_t start = 0;
    const std::string& line = lines[0];
    while (start < line.size()) {
      auto space = line.find(' ', start);
      if (space == std::string::npos) space = line.size();
      const std::string name = line.substr(start, space - start);
      const BoardShape any{kMaxSide, kMaxSide};
      try {
        const auto rc = parse_row_col(any, name, "square");
        rows = std::max(rows, rc.row + 1);
        cols = std::max(cols, rc.col + 1);
      } catch (const UsageError&) {
        return std::nullopt;
      }
      start = space + 1;
    }
    if (rows == 0) return std::nullopt;
    return BoardShape{rows, cols};
  }
  if (!lines.back().empty()) return std::nullopt;
  const int rows = static_cast<int>(lines.size()) - 1;
  int cols = 0;
  bool in_number = false;
  for (char ch : lines[0]) {
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      if (!in_number) ++cols;
      in_number = true;
    } else {
      in_number = false;
    }
  }
  if (rows < 1 || cols < 1) return std::nullopt;
  return BoardShape{rows, cols};
}

}  // namespace knightstour
