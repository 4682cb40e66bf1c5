#pragma once

#include "cli_options.hpp"

namespace knightstour::cli {

// `count --method frontier`: parses what applies to the frontier method (an option that has
// no meaning there is a UsageError), counts, prints; returns the exit code.
int frontier_count(const cxxopts::ParseResult& result);

}  // namespace knightstour::cli
