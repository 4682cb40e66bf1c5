// Numbers with size and time suffixes (--max-tours 1e9, --memory 16G, --time-limit 2h): a
// value in range, or a UsageError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"

using namespace knightstour;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)parse_count("n", text);
  } catch (const UsageError&) {
  }
  try {
    if (parse_size("size", text) == 0) std::abort();
  } catch (const UsageError&) {
  }
  try {
    const double s = parse_seconds("seconds", text);
    if (!(s >= 0 && s <= kMaxSeconds)) std::abort();
  } catch (const UsageError&) {
  }
  try {
    const int v = parse_int("i", text, 3, 40);
    if (v < 3 || v > 40) std::abort();
  } catch (const UsageError&) {
  }
  return 0;
}
