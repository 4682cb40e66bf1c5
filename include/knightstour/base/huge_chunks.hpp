#pragma once

// Large scratch chunks backed by transparent huge pages where the system offers them.
//
// Why: a frontier step writes every successor into fresh memory, and each first touch of a
// 4 KiB page is a page fault. On 7x8 closed that was 1.5 million faults and a fifth of the
// CPU time (12 s of system time in 61 s; docs/speed.md (huge-pages.md)). A chunk
// aligned to 2 MiB and marked MADV_HUGEPAGE faults once per 2 MiB and needs one TLB entry,
// and goes back to the system as soon as it is freed. Where huge pages are off ("never") or
// madvise fails, the chunk is ordinary memory.

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>

namespace knightstour {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// The chunk size for scratch memory under a budget of `limit` bytes: a huge page, unless the
// budget is so small (tests, tiny runs) that a few threads' 2 MiB chunks would crowd it; then
// a power of two down to 64 KiB, about limit / 512.
inline std::size_t scratch_chunk_bytes(std::uint64_t limit) {
  std::size_t bytes = kHugePageBytes;
  while (bytes > (std::size_t{64} << 10) && bytes * 512 > limit) bytes /= 2;
  return bytes;
}

// `bytes` of scratch memory; a multiple of kHugePageBytes is aligned to it and marked for huge
// pages. Throws std::bad_alloc.
inline void* allocate_chunk(std::size_t bytes) {
  if (bytes % kHugePageBytes != 0) return ::operator new(bytes);
  const std::size_t padded = bytes + kHugePageBytes;
  void* raw = ::mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  // Unmap the slack on both sides, so that only the aligned chunk stays mapped.
  auto* base = static_cast<char*>(raw);
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::size_t head = (kHugePageBytes - start % kHugePageBytes) % kHugePageBytes;
  char* chunk = base + head;
  if (head > 0) ::munmap(base, head);
  const std::size_t tail = padded - head - bytes;
  if (tail > 0) ::munmap(chunk + bytes, tail);
#ifdef MADV_HUGEPAGE
  ::madvise(chunk, bytes, MADV_HUGEPAGE);  // a hint: without huge pages the chunk still works
#endif
  return chunk;
}

// Gives back a chunk of allocate_chunk(bytes), to the system when it was mapped.
inline void free_chunk(void* chunk, std::size_t bytes) {
  if (chunk == nullptr) return;
  if (bytes % kHugePageBytes != 0) {
    ::operator delete(chunk);
  } else {
    ::munmap(chunk, bytes);
  }
}

}  // namespace knightstour
