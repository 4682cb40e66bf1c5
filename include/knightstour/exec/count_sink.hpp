#pragma once

#include "knightstour/exec/sink.hpp"

namespace knightstour {

// Counts tours by last square; a mirror image's counts are the searched prefix's counts
// with the last squares mapped through the symmetry. Every result is recorded at once.
class CountSink final : public Sink {
 public:
  bool run(const WorkItem& item, ItemContext& context) override;
};

}  // namespace knightstour
