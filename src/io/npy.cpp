#include "knightstour/io/npy.hpp"

#include <cctype>
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

// The header dictionary is a Python literal that numpy reads with ast.literal_eval. This
// reads a strict subset of that grammar, so that every header accepted here means the same
// to numpy: the three keys exactly once each, in any order, quoted with ' or "; a trailing
// comma allowed; spaces between tokens; padding of spaces ending in at most one newline run.
// Anything else (comments, other whitespace, leading zeros, which Python 3 refuses, repeated
// keys, which numpy resolves silently to the last) is refused.
class HeaderDict {
 public:
  explicit HeaderDict(const std::string& text) : text_(text) {}

  NpyShape parse() {
    expect('{');
    bool descr = false, order = false, shape = false;
    NpyShape out;
    while (true) {
      skip_spaces();
      if (peek() == '}') break;
      const std::string key = quoted();
      skip_spaces();
      expect(':');
      skip_spaces();
      if (key == "descr") {
        once(descr, key);
        out.item_size = item_size(quoted());
      } else if (key == "fortran_order") {
        once(order, key);
        if (!word("False")) {
          if (word("True")) fail("expected C order (fortran_order False)");
          fail("fortran_order must be False");
        }
      } else if (key == "shape") {
        once(shape, key);
        parse_shape(out);
      } else {
        fail("unexpected key '" + key + "'");
      }
      skip_spaces();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skip_spaces();
      if (peek() != '}') fail("expected ',' or '}'");
    }
    expect('}');
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    while (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    if (pos_ != text_.size()) fail("unexpected text after the dictionary");
    if (!descr || !order || !shape) fail("needs the keys descr, fortran_order and shape");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw FormatError("npy header: " + why); }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_spaces() {
    while (peek() == ' ') ++pos_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool word(const char* w) {
    const std::string s(w);
    if (text_.compare(pos_, s.size(), s) != 0) return false;
    const char after = pos_ + s.size() < text_.size() ? text_[pos_ + s.size()] : '\0';
    if (std::isalnum(static_cast<unsigned char>(after)) || after == '_') return false;
    pos_ += s.size();
    return true;
  }
  void once(bool& seen, const std::string& key) const {
    if (seen) fail("key '" + key + "' given twice");
    seen = true;
  }
  // A plain quoted string: letters, digits, '<', '|', '_' only (no escapes to interpret).
  std::string quoted() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted key or string");
    ++pos_;
    std::string s;
    while (pos_ < text_.size() && text_[pos_] != q) {
      const char c = text_[pos_++];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '<' && c != '|' && c != '_')
        fail("unexpected character in a string");
      s += c;
    }
    if (pos_ >= text_.size()) fail("unterminated string");
    ++pos_;
    return s;
  }
  int item_size(const std::string& descr) const {
    if (descr == "|u1" || descr == "<u1" || descr == "u1") return 1;
    if (descr == "<u2") return 2;
    if (descr == "<u4") return 4;
    fail("expected an unsigned little-endian dtype (|u1, <u2, <u4), not '" + descr + "'");
  }
  std::uint64_t number() {
    const std::size_t begin = pos_;
    while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    if (pos_ == begin) fail("bad shape");
    if (text_[begin] == '0' && pos_ - begin > 1) fail("bad shape (leading zero)");
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text_.data() + begin, text_.data() + pos_, value);
    if (ec != std::errc{}) fail("bad shape (number too large)");
    (void)ptr;
    return value;
  }
  void parse_shape(NpyShape& out) {
    expect('(');
    skip_spaces();
    out.rows = number();
    skip_spaces();
    expect(',');
    skip_spaces();
    if (peek() == ')') fail("expected a 2-D shape");
    out.cols = number();
    skip_spaces();
    if (peek() == ',') {
      ++pos_;
      skip_spaces();
    }
    if (peek() != ')') fail("expected a 2-D shape");
    ++pos_;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

NpyShape parse_npy_header(const std::string& data, std::size_t& header_size) {
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) {
    throw FormatError("not a .npy file (no NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(data[6]);
  const int minor = static_cast<unsigned char>(data[7]);
  std::size_t length = 0;
  std::size_t prefix = 0;
  if (major == 1 && minor == 0) {
    length = static_cast<unsigned char>(data[8]) |
             (static_cast<std::size_t>(static_cast<unsigned char>(data[9])) << 8);
    prefix = 10;
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (data.size() < 12) throw FormatError("truncated .npy header");
    length = 0;
    for (int i = 3; i >= 0; --i)
      length = (length << 8) | static_cast<unsigned char>(data[8 + static_cast<std::size_t>(i)]);
    prefix = 12;
  } else {
    throw FormatError("unsupported .npy version " + std::to_string(major) + "." +
                      std::to_string(minor));
  }
  if (length > kNpyMaxHeaderLength) throw FormatError("npy header: longer than numpy reads");
  if (data.size() < prefix + length) throw FormatError("truncated .npy header");
  header_size = prefix + length;
  const std::string dict = data.substr(prefix, length);
  return HeaderDict(dict).parse();
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
