// .npy headers: parsed into a shape consistent with the bytes, or a FormatError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/npy.hpp"

using namespace knightstour;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    std::size_t header_size = 0;
    const NpyShape shape = parse_npy_header(bytes, header_size);
    if (header_size > bytes.size()) std::abort();  // claimed more header than it read
    if (shape.item_size != 1 && shape.item_size != 2 && shape.item_size != 4) std::abort();
    // What we accept, we write back the same way (for the shapes our writer can hold).
    if (shape.rows < 1'000'000'000'000ull && shape.cols < 1'000'000) {
      std::size_t again = 0;
      const NpyShape round = parse_npy_header(npy_header(shape), again);
      if (round.rows != shape.rows || round.cols != shape.cols ||
          round.item_size != shape.item_size)
        std::abort();
    }
  } catch (const FormatError&) {
  }
  return 0;
}
