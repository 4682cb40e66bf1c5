#include "knightstour/base/huge_chunks.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "knightstour/base/process_memory.hpp"

namespace knightstour {
namespace {

// Huge pages under a budget of a GiB; under a few MiB, chunks a 512th of it, never below 64 KiB.
TEST(HugeChunks, ChunkSizeFollowsTheBudget) {
  EXPECT_EQ(scratch_chunk_bytes(std::uint64_t{1} << 30), std::size_t{2} << 20);
  EXPECT_EQ(scratch_chunk_bytes(std::uint64_t{12} << 30), std::size_t{2} << 20);
  EXPECT_EQ(scratch_chunk_bytes(std::uint64_t{256} << 20), std::size_t{512} << 10);
  EXPECT_EQ(scratch_chunk_bytes(std::uint64_t{3} << 20), std::size_t{64} << 10);
  EXPECT_EQ(scratch_chunk_bytes(0), std::size_t{64} << 10);
}

// A huge chunk is aligned to 2 MiB, writable end to end, and gone from the process's
// anonymous memory once freed (it is unmapped, not kept by the heap).
TEST(HugeChunks, AHugeChunkIsAlignedAndGoesBackWhenFreed) {
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  const std::uint64_t before = anonymous_memory();
  void* chunk = allocate_chunk(kBytes);
  ASSERT_NE(chunk, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(chunk) % kHugePageBytes, 0u);
  std::memset(chunk, 7, kBytes);
  EXPECT_EQ(static_cast<unsigned char*>(chunk)[kBytes - 1], 7);
  EXPECT_GE(anonymous_memory(), before + kBytes / 2);
  free_chunk(chunk, kBytes);
  EXPECT_LT(anonymous_memory(), before + kBytes / 2);
}

// A chunk that is not a whole number of huge pages is ordinary heap memory.
TEST(HugeChunks, ASmallChunkIsOrdinaryMemory) {
  void* chunk = allocate_chunk(std::size_t{64} << 10);
  ASSERT_NE(chunk, nullptr);
  std::memset(chunk, 1, std::size_t{64} << 10);
  free_chunk(chunk, std::size_t{64} << 10);
}

}  // namespace
}  // namespace knightstour
