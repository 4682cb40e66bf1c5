#include "knightstour/io/npy.hpp"

#include <charconv>
#include <stdexcept>

#include "knightstour/base/errors.hpp"

namespace knightstour {

std::string npy_header(const NpyShape& shape) {
  const char* descr = shape.item_size == 1 ? "|u1" : shape.item_size == 2 ? "<u2" : "<u4";
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(shape.rows) + ", " + std::to_string(shape.cols) + "), }";
  const std::size_t prefix = 10;  // magic (6) + version (2) + header length (2)
  if (prefix + dict.size() + 1 > kNpyHeaderSize) throw std::logic_error("npy header too long");
  dict.append(kNpyHeaderSize - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  const auto length = static_cast<std::uint16_t>(dict.size());
  out += static_cast<char>(length & 0xff);
  out += static_cast<char>(length >> 8);
  return out + dict;
}

namespace {

std::uint64_t parse_number(const std::string& text, std::size_t& pos) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), value);
  if (ec != std::errc{}) throw FormatError("npy header: bad shape");
  pos = static_cast<std::size_t>(ptr - text.data());
  return value;
}

}  // namespace

NpyShape parse_npy_header(const std::string& data, std::size_t& header_size) {
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) {
    throw FormatError("not a .npy file (no NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(data[6]);
  std::size_t length = 0;
  std::size_t prefix = 0;
  if (major == 1) {
    length = static_cast<unsigned char>(data[8]) |
             (static_cast<std::size_t>(static_cast<unsigned char>(data[9])) << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) throw FormatError("truncated .npy header");
    length = 0;
    for (int i = 3; i >= 0; --i)
      length = (length << 8) | static_cast<unsigned char>(data[static_cast<std::size_t>(8 + i)]);
    prefix = 12;
  } else {
    throw FormatError("unsupported .npy version " + std::to_string(major));
  }
  if (data.size() < prefix + length) throw FormatError("truncated .npy header");
  header_size = prefix + length;
  const std::string dict = data.substr(prefix, length);
  NpyShape shape;
  if (dict.find("'descr': '|u1'") != std::string::npos ||
      dict.find("'descr': '<u1'") != std::string::npos) {
    shape.item_size = 1;
  } else if (dict.find("'descr': '<u2'") != std::string::npos) {
    shape.item_size = 2;
  } else if (dict.find("'descr': '<u4'") != std::string::npos) {
    shape.item_size = 4;
  } else {
    throw FormatError("npy header: expected an unsigned little-endian dtype (|u1, <u2, <u4)");
  }
  if (dict.find("'fortran_order': False") == std::string::npos) {
    throw FormatError("npy header: expected C order (fortran_order False)");
  }
  const auto s = dict.find("'shape': (");
  if (s == std::string::npos) throw FormatError("npy header: no shape");
  std::size_t pos = s + 10;
  shape.rows = parse_number(dict, pos);
  while (pos < dict.size() && dict[pos] == ' ') ++pos;
  if (pos >= dict.size() || dict[pos] != ',') throw FormatError("npy header: expected a 2-D shape");
  ++pos;
  shape.cols = parse_number(dict, pos);
  while (pos < dict.size() && dict[pos] == ' ') ++pos;
  if (pos >= dict.size() || dict[pos] != ')') throw FormatError("npy header: expected a 2-D shape");
  return shape;
}

std::string zstd_raw_frame(const std::string& payload) {
  if (payload.size() > 255) throw std::logic_error("raw frame payload too long");
  std::string frame = "\x28\xb5\x2f\xfd";  // zstd frame magic 0xFD2FB528, little endian
  frame += '\x20';  // descriptor: single segment, 1-byte content size, no checksum, no dict
  frame += static_cast<char>(payload.size());
  const std::uint32_t block = 1u | (0u << 1) | (static_cast<std::uint32_t>(payload.size()) << 3);
  frame += static_cast<char>(block & 0xff);
  frame += static_cast<char>((block >> 8) & 0xff);
  frame += static_cast<char>((block >> 16) & 0xff);
  return frame + payload;
}

}  // namespace knightstour
