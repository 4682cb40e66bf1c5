#include "knightstour/base/process_memory.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace knightstour {
namespace {

TEST(ProcessMemory, SeesMemoryTouchedAndKeepsThePeakAfterItIsFreed) {
  const std::uint64_t before = anonymous_memory();
  ASSERT_GT(before, 0u) << "/proc/self/status has no RssAnon";
  AnonymousMemoryPeak peak(0.01);
  constexpr std::size_t kBytes = 256u << 20;
  {
    auto block = std::make_unique<char[]>(kBytes);
    std::memset(block.get(), 1, kBytes);  // touched: resident
    EXPECT_GE(anonymous_memory(), before + kBytes / 2);
    EXPECT_GE(peak.peak(), before + kBytes / 2);
  }
  // Freed (whether or not the allocator gives it back): the peak stays.
  EXPECT_GE(peak.peak(), before + kBytes / 2);
}

}  // namespace
}  // namespace knightstour
