#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/exec/count_engine.hpp"
#include "knightstour/exec/enumerate_engine.hpp"
#include "knightstour/exec/run_totals.hpp"
#include "knightstour/plan/job.hpp"

namespace knightstour::cli {

// What count and enumerate print at the end of a run, as text or JSON.
struct RunSummary {
  std::string command;  // "count" or "enumerate"
  JobSpec job;
  RunTotals totals;
  std::size_t prefixes_before = 0;             // done by earlier sessions (resume)
  std::string run_dir;                         // empty when none
  const CountReport* count = nullptr;          // count's grids
  const EnumerateReport* enumerate = nullptr;  // enumerate's files
  std::string format;                          // enumerate
  std::string compression;                     // enumerate
};

void print_summary_text(const RunSummary& s);
void print_summary_json(const RunSummary& s);
// Prints the summary as text or JSON; returns the exit code (0 complete, 3 stopped early).
int print_summary(const RunSummary& s, bool json);

}  // namespace knightstour::cli
