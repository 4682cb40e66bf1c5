#pragma once

#include <cstdint>
#include <vector>

namespace knightstour::test {

// Tours counted by the most literal search possible: a visited array, the eight knight
// offsets, no bitboards, no pruning, none of the library's code. Result by last square.
struct ReferenceCounts {
  std::uint64_t tours = 0;
  std::vector<std::uint64_t> by_end;
};
ReferenceCounts reference_count(int rows, int cols, int start_row, int start_col, bool closed);

}  // namespace knightstour::test
