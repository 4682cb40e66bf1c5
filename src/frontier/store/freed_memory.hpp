#pragma once

// Giving freed memory back to the system, so that what the process holds is what the
// memory budget says it holds.

#include <malloc.h>

#include <cstdint>

#include "frontier/store/memory_budget.hpp"

namespace knightstour::frontier_detail {

// Hands memory freed by tables and spilled parts back to the system. glibc keeps freed
// chunks of its per-thread heaps resident; without this, resident memory on 8x8 grew to
// the budget plus several GiB of freed tables and nearly exhausted the machine.
inline void return_freed_memory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

// Tables freed past this many bytes go back to the system at once.
inline constexpr std::uint64_t kTrimAfterBytes = std::uint64_t{64} << 20;

// Whether `freed` bytes left in the heap, beside what the budget holds, would take more
// than half of the budget: then they go back to the system (return_freed_memory).
inline bool keeps_freed_heap_crowded(const MemoryBudget& budget, std::uint64_t freed) {
  return 2 * (budget.used() + freed) > budget.limit();
}

}  // namespace knightstour::frontier_detail
