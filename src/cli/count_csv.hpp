#pragma once

#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "knightstour/count/count_result.hpp"

namespace knightstour::cli {

// count --csv FILE: the count's most detailed table as CSV (RFC 4180, LF line ends), its
// header naming each column by the three counts' names (docs/formats.md, "Three counts"):
//   a row (--every-length)     rows,length,tours_directed[,tours_undirected],closed_cycles
//   a start x end table         start,end,tours_directed   (by units of end pairs)
//   counts by start square      square,rank,file,tours_directed,closed_tours_directed
//   else one line               board,start,end,tours_directed,tours_undirected,
//                               closed_tours_directed,closed_cycles
// Only of a complete count: a stopped one writes none (and says so).
void add_csv_option(cxxopts::Options& options);
// The file asked for, checked before the count (its folder must exist).
std::optional<std::string> csv_file(const cxxopts::ParseResult& result);
// Writes it (atomically); false, with a line on stderr, when the count did not complete.
bool write_count_csv(const CountResult& r, const std::string& path);

}  // namespace knightstour::cli
