#pragma once

#include "knightstour/count/count_request.hpp"
#include "knightstour/count/count_result.hpp"

namespace knightstour {

// Counts what `request` asks with the method choose_method() picks (or the run directory's
// method, on a resume). Every check of the request comes before anything is created: a bad
// request is a UsageError and leaves no trace. With a run directory, the directory is locked
// before anything in it is read or written. Signals and the time limit stop it cleanly.
CountResult run_count(const CountRequest& request);

// The enumerator's Request for `request`: what it gives, the rest from the run being resumed
// (`resumed`, nullptr for a new run). Throws UsageError for a start off the board, a path
// that is no knight's path, a split depth or shard out of range. enumerate and prefixes
// build theirs with it too.
Request dfs_request(const CountRequest& request, const RunManifest* resumed);

// The same for a command that wants the start said (enumerate, prefixes, estimate's walks):
// a new run with no start, prefix or all starts is refused (count alone takes a closed count
// without one as from a1).
Request enumerator_request(const CountRequest& request, const RunManifest* resumed);

// A new count's request with its defaults: a closed count from no given start counts from
// a1. Throws UsageError without a board, or for an open count without a start.
CountRequest request_with_defaults(CountRequest request);

}  // namespace knightstour
