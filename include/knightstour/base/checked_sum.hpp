#pragma once

#include <cstdint>
#include <string>

#include "knightstour/base/errors.hpp"

namespace knightstour {

// Adds counts read from files. No true count of a board of at most 64 squares reaches 2^64
// (8x8 has about 2*10^16 tours), so a sum that would wrap means a damaged or edited file:
// refuse it rather than report a wrapped total as if it were exact.
inline void add_checked(std::uint64_t& total, std::uint64_t add, const std::string& what) {
  if (__builtin_add_overflow(total, add, &total)) {
    throw FormatError(what + ": counts add up past 2^64 (a damaged or edited file)");
  }
}

}  // namespace knightstour
