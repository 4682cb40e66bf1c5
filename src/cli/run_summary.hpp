#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/job.hpp"
#include "knightstour/stop_control.hpp"

namespace knightstour::cli {

// What count and enumerate print at the end of a run, as text or JSON.
struct RunSummary {
  std::string command;  // "count" or "enumerate"
  JobSpec job;
  bool complete = false;
  StopReason stop_reason = StopReason::none;
  std::size_t plan_prefixes = 0;
  std::size_t prefixes = 0;         // in this shard
  std::size_t prefixes_done = 0;    // including earlier sessions
  std::size_t prefixes_before = 0;  // done by earlier sessions (resume)
  std::size_t searches = 0;
  std::uint64_t tours = 0;
  std::uint64_t closed = 0;
  std::uint64_t nodes = 0;  // searched in this session
  double seconds = 0;
  std::string run_dir;  // empty when none
  // count
  std::vector<std::uint64_t> tours_by_start, closed_by_start, tours_by_end;
  // enumerate
  std::string format;
  std::string compression;
  std::uint64_t files = 0;          // written this session
  std::uint64_t tours_written = 0;  // this session
  std::uint64_t bytes_written = 0;  // this session
};

void print_summary_text(const RunSummary& s);
void print_summary_json(const RunSummary& s);

}  // namespace knightstour::cli
