#include "knightstour/base/checksum.hpp"

#include <cstdint>

#include "knightstour/base/units.hpp"

namespace knightstour {

std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
  return hex64(h);
}

std::string keyed_checksum(const std::string& key, const std::string& text) {
  return fnv1a_hex(key + '\n' + text);
}

}  // namespace knightstour
