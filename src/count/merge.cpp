#include "knightstour/count/merge.hpp"

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour {

bool Merged::complete() const {
  return std::visit([](const auto& r) { return r.complete(); }, report);
}

std::vector<std::string> check(const MergeRequest& request) {
  std::vector<std::string> refusals;
  if (request.inputs.empty()) {
    refusals.emplace_back(
        "merge needs the shard run directories: knightstour merge DIR... $out DIR");
  }
  if (request.out.empty()) {
    refusals.emplace_back("merge needs $out DIR: the new run directory to write the merged run to");
  }
  return refusals;
}

Merged merge(const MergeRequest& request) {
  refuse_first(check(request));
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
