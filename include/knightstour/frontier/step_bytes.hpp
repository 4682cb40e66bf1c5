#pragma once

#include <cstdint>

namespace knightstour {

// What the memory budget held at the fullest moment of a sweep's widest step (the end of a
// pass's aggregation, when the successors wait in blocks beside both generations), by what
// held it. total() is what the budget counted then; peak_bytes, its highest at any moment,
// is at least that.
struct StepBytes {
  std::uint64_t current = 0;     // the generation being expanded (its parts in memory)
  std::uint64_t next = 0;        // the generation being built
  std::uint64_t partial = 0;     // a sliced step's partial parts of it, before they merge
  std::uint64_t successors = 0;  // blocks of successors waiting to be added up (and outboxes)
  std::uint64_t tables = 0;      // the threads' aggregation tables and their scratch
  std::uint64_t idle = 0;        // scratch chunks kept for the next pass or step to reuse
  std::uint64_t other = 0;       // choice plans, read and write buffers
  std::uint64_t kept = 0;        // generations kept for a pass back (GridMethod::pass)
  std::uint64_t total() const {
    return current + next + partial + successors + tables + idle + other + kept;
  }
};

}  // namespace knightstour
