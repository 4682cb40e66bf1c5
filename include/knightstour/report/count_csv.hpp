#pragma once

#include <string>

#include "knightstour/count/count_result.hpp"

namespace knightstour {

// A complete count's most detailed table as CSV (RFC 4180, LF line ends), its header naming
// each column by the three counts' names (docs/formats.md, "Three counts"):
//   a row (every length)       rows,length,tours_directed[,tours_undirected],closed_cycles
//   a start x end table         start,end,tours_directed   (by units of end pairs)
//   counts by start square      square,rank,file,tours_directed,closed_tours_directed
//   else one line               board,start,end,tours_directed,tours_undirected,
//                               closed_tours_directed,closed_cycles
// Residues (a modulus) carry their prime in a last column, `modulus`.
std::string count_csv(const CountResult& r);

}  // namespace knightstour
