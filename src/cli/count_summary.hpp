#pragma once

#include "knightstour/count/count_result.hpp"

namespace knightstour::cli {

// Prints what `count` found, by either method, as text or as one JSON object (keys in
// docs/formats.md: the same keys mean the same for both methods); returns the exit code
// (0 complete, 3 stopped early).
int print_count(const CountResult& result, bool json);

}  // namespace knightstour::cli
