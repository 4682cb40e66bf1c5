#pragma once

#include "knightstour/report/report.hpp"

namespace knightstour::cli {

// A report as text or as its JSON object (with this build's provenance), every `$field` its
// words name spelled as the flag; returns the exit code of its outcome (cli_options.hpp).
int print_report(const Report& report, bool json);

}  // namespace knightstour::cli
