#pragma once

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "knightstour/frontier_run/verify_frontier.hpp"
#include "knightstour/run/verify.hpp"

namespace knightstour {

// What `verify` is asked: run directories or tour files, and what loose files must hold.
struct VerifyRequest {
  std::vector<std::string> paths;
  VerifyOptions loose;
};

// The enumerator's run directories and loose tour files, each checked: the verdicts summed,
// and how many reports they came from.
struct SummedVerdict {
  VerifyReport total;
  std::size_t reports = 0;
};

// A frontier run directory (holding counts and checkpoints, no tours), checked on its own.
struct FrontierRunVerdict {
  std::string dir;
  FrontierVerdict verdict;
};

// The request's refusals, naming its fields; empty when it can be checked.
std::vector<std::string> check(const VerifyRequest& request);

using Verdict = std::variant<SummedVerdict, FrontierRunVerdict>;
bool verdict_ok(const Verdict& verdict);

// Checks every path by the method whose run it holds. Refused (UsageError, naming fields):
// what check() refuses, a path that cannot be read, a board that disagrees with a run directory's
// own, a frontier run directory among other paths. A problem found in what is read is the
// verdict's, not an error.
Verdict verify(const VerifyRequest& request);

}  // namespace knightstour
