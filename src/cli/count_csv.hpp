#pragma once

#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "knightstour/count/count_result.hpp"

namespace knightstour::cli {

// count --csv FILE: the count's table (report/count_csv.hpp). Only of a complete count: a
// stopped one writes none (and says so).
void add_csv_option(cxxopts::Options& options);
// The file asked for, checked before the count (its folder must exist).
std::optional<std::string> csv_file(const cxxopts::ParseResult& result);
// Writes it (atomically); false, with a line on stderr, when the count did not complete.
bool write_count_csv(const CountResult& r, const std::string& path);

}  // namespace knightstour::cli
