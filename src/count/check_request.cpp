#include <string>
#include <vector>

#include "knightstour/count/count_request.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour {

namespace {

// Counts up to symmetry need every tour of the job in one session: the journal keeps no
// per-tour symmetry counts.
void check_up_to_symmetry(const CountRequest& r, std::vector<std::string>& refused) {
  if (!r.up_to_symmetry) return;
  if (r.run_dir || r.resume) {
    refused.emplace_back(
        "$up_to_symmetry counts in one session and keeps nothing in a run directory; "
        "leave out $run_dir (and $resume)");
  }
  if (r.prefix.size() > 1) {
    refused.emplace_back(
        "$up_to_symmetry counts from a start square or over all starts; give $start instead "
        "of $prefix");
  }
  if (r.shard && r.shard->count > 1) {
    refused.emplace_back("$up_to_symmetry needs every tour in one run; leave out $shard_count");
  }
}

// A count between two squares runs in one session of one process, from one start.
void check_end(const CountRequest& r, std::vector<std::string>& refused) {
  if (!r.end) return;
  if (r.run_dir || r.resume) {
    refused.emplace_back(
        "$end counts in one session and keeps no run directory; leave out $run_dir");
  }
  if (r.closed.value_or(false)) {
    refused.emplace_back(
        "$end counts open tours between two squares (those ending a knight move from the "
        "start are the closed ones); leave out $closed");
  }
  if (r.shard && r.shard->count > 1) {
    refused.emplace_back("$end counts in one run; leave out $shard_count");
  }
  if (r.up_to_symmetry) refused.emplace_back("$end and $up_to_symmetry do not go together");
  if (r.caps.max_tours != 0) {
    // The cap counts the tours found to every end, which a count to one end does not count.
    refused.emplace_back(
        "$max_tours caps the tours found to any end, not those ending on $end; give "
        "$time_limit or $max_nodes instead");
  }
  if (several_ranks(r.ranks) != nullptr) {
    refused.emplace_back("$end counts in one process; start it without mpirun");
  }
  if (r.prefix.size() != 1) {
    refused.emplace_back("$end goes with $start");
  } else if (*r.end == r.prefix.front()) {
    refused.emplace_back(
        "$end must be another square than $start (a tour visits each square once)");
  }
}

}  // namespace

std::vector<std::string> check(const CountRequest& request) {
  std::vector<std::string> refused;
  check_up_to_symmetry(request, refused);
  check_end(request, refused);
  if (request.resume && !request.run_dir) refused.emplace_back("$resume needs $run_dir DIR");
  if (request.checkpoint_seconds && !request.run_dir) {
    refused.emplace_back("$checkpoint_seconds needs $run_dir DIR (where the checkpoints go)");
  }
  return refused;
}

}  // namespace knightstour
