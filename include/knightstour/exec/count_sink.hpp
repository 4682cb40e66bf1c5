#pragma once

#include <optional>

#include "knightstour/board/tour_symmetry.hpp"
#include "knightstour/exec/sink.hpp"

namespace knightstour {

// Counts tours by last square; a mirror image's counts are the searched prefix's counts
// with the last squares mapped through the symmetry. Every result is recorded at once.
// Given the board (`tour_symmetries_of`), it also looks at each tour's squares to count the
// tours that are their own mirror image walked backwards and the symmetries of closed cycles
// (what counts up to symmetry need); the kernel then hands over every tour's path, which is
// slower.
class CountSink final : public Sink {
 public:
  explicit CountSink(const Board* tour_symmetries_of = nullptr) {
    if (tour_symmetries_of != nullptr) symmetry_.emplace(*tour_symmetries_of);
  }
  bool run(const WorkItem& item, ItemContext& context) override;

 private:
  std::optional<TourSymmetry> symmetry_;  // read-only while the threads search
};

}  // namespace knightstour
