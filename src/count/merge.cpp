#include "knightstour/count/merge.hpp"

#include "knightstour/frontier_run/frontier_manifest.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour {

bool Merged::complete() const {
  return std::visit([](const auto& r) { return r.complete(); }, report);
}

Merged merge(const MergeRequest& request) {
  for (const auto& dir : request.inputs) check_readable_run_path(dir);
  Merged merged;
  merged.out = request.out;
  if (holds_frontier_run(request.inputs.front())) {
    merged.report = merge_frontier_runs(request.inputs, request.out, request.options.provenance);
  } else {
    merged.report = merge_runs(request.inputs, request.out, request.options);
  }
  return merged;
}

}  // namespace knightstour
