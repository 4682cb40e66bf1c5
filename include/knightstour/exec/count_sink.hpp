#pragma once

#include "knightstour/exec/sink.hpp"

namespace knightstour {

// Counts tours by last square; a mirror image's counts are the searched prefix's counts
// with the last squares mapped through the symmetry. Every result is recorded at once.
// With `tour_symmetries`, it also looks at each tour's squares to count the tours that are
// their own mirror image walked backwards and the symmetries of closed cycles (what counts
// up to symmetry need); the kernel then hands over every tour's path, which is slower.
class CountSink final : public Sink {
 public:
  explicit CountSink(bool tour_symmetries = false) : tour_symmetries_(tour_symmetries) {}
  bool run(const WorkItem& item, ItemContext& context) override;

 private:
  bool tour_symmetries_;
};

}  // namespace knightstour
