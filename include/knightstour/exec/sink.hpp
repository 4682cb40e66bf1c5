#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/exec/ledger.hpp"
#include "knightstour/plan/plan.hpp"

namespace knightstour {

// Takes the results of finished prefixes into the run (ledger, totals, progress).
// Thread-safe.
class Recorder {
 public:
  virtual ~Recorder() = default;
  virtual void record(std::vector<PrefixResult> results) = 0;
};

// What a sink gets to search one work item.
struct ItemContext {
  const Plan& plan;
  StopControl& stop;
  std::uint64_t poll_interval;  // nodes between the kernel's polls
  Recorder& recorder;
};

// What the tours of a run turn into: counts, or tour files. The driver calls run() once per
// work item on its worker threads; the sink runs the kernel with its own visitor (so the
// kernel's per-node calls are never virtual), maps the tours to the item's mirror-image
// members, and hands their results to the recorder once they are durable.
class Sink {
 public:
  virtual ~Sink() = default;
  // Searches `item` on the calling thread. False when the stop control ended the search
  // early: nothing of the item is recorded then.
  virtual bool run(const WorkItem& item, ItemContext& context) = 0;
  // After the last item, also after a stop or a failure (`failed`): records whatever is
  // finished but still pending.
  virtual void end(Recorder& recorder, bool failed) {
    (void)recorder;
    (void)failed;
  }
  // A fragment for the progress line, such as ", 1.20 M in finished files".
  virtual std::string status() const { return {}; }
};

}  // namespace knightstour
