#pragma once

#include <cstdint>

namespace knightstour {

// The murmur3 finalizer: spreads a class key over 64 bits. The top bits choose a class's
// part, the low bits its place in the part's aggregation table.
inline std::uint64_t class_hash(std::uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key;
}

}  // namespace knightstour
