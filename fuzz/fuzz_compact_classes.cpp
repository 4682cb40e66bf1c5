// A block of compact classes as read back from a spill file or a checkpoint
// (compact_classes.hpp): decoded, or refused with std::runtime_error, never read past its
// bytes and their padding; what decodes encodes again to bytes that decode the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "frontier/store/compact_classes.hpp"

using namespace knightstour;

namespace {

template <int K>
void check(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  bytes.resize(size + CompactClasses::kPadding);
  std::vector<std::uint64_t> keys(CompactClasses::kBlockClasses);
  std::vector<WideCount<K>> counts(CompactClasses::kBlockClasses);
  std::size_t n = 0;
  try {
    n = CompactClasses::decode_block<K>(bytes.data(), size, keys.data(), counts.data());
  } catch (const std::runtime_error&) {
    return;
  }
  if (n > CompactClasses::kBlockClasses) std::abort();
  CompactWriter<K> writer;
  for (std::size_t i = 0; i < n; ++i) writer.add(keys[i], keys[i] & 0xffff, counts[i]);
  const CompactClasses again = writer.finish();
  if (again.classes != n || again.blocks() > 1) std::abort();
  if (n == 0) return;
  std::vector<std::uint64_t> keys2(CompactClasses::kBlockClasses);
  std::vector<WideCount<K>> counts2(CompactClasses::kBlockClasses);
  if (CompactClasses::decode_block<K>(again.bytes.data(), again.block_bytes(0), keys2.data(),
                                      counts2.data()) != n)
    std::abort();
  for (std::size_t i = 0; i < n; ++i) {
    if (keys2[i] != keys[i] || !(counts2[i] == counts[i])) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check<1>(data, size);
  check<2>(data, size);
  return 0;
}
