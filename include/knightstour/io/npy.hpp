#pragma once

#include <cstdint>
#include <string>

namespace knightstour {

// NumPy .npy (format version 1.0) headers for 2-D little-endian unsigned arrays in C order.
// Headers are always kNpyHeaderSize bytes, so the row count can be rewritten in place once a
// file is finished.
inline constexpr std::size_t kNpyHeaderSize = 128;
// numpy refuses longer header dictionaries by default (np.load's max_header_size).
inline constexpr std::size_t kNpyMaxHeaderLength = 10000;

struct NpyShape {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  int item_size = 1;  // 1, 2 or 4 bytes ('|u1', '<u2', '<u4')
};

std::string npy_header(const NpyShape& shape);

// Parses the header at the start of `data` (at least 10 bytes, ideally the whole header):
// versions 1.0, 2.0 and 3.0, and of their dictionaries a strict subset of what numpy reads,
// so a header accepted here never means something else to numpy. Sets header_size to the
// bytes before the first row. Throws FormatError with the reason.
NpyShape parse_npy_header(const std::string& data, std::size_t& header_size);

// A zstd frame holding `payload` (at most 255 bytes) as one raw block: its size depends only
// on the payload's size, so the .npy header inside a .npy.zst file can be rewritten in place.
std::string zstd_raw_frame(const std::string& payload);

}  // namespace knightstour
