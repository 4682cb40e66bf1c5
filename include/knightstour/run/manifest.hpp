#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/job.hpp"

namespace knightstour {

// manifest.json of a run directory: what was asked, how far it got, how long it took.
// Written atomically (temp file, fsync, rename) at the start and end of every session.
struct RunManifest {
  static constexpr int kFormatVersion = 1;

  // What was asked. These define the prefixes and the files; a resume must agree on them.
  std::string command;  // "count" or "enumerate"
  int rows = 0;
  int cols = 0;
  bool all_starts = false;
  std::vector<std::string> prefix;  // square names; prefix[0] is the start
  bool closed_only = false;
  std::string algorithm = "pruned";
  std::string prefix_rules;
  int split_depth = 0;
  Shard shard;
  std::string tour_format;  // enumerate only: npy, text, board
  std::string compression;  // enumerate only: none, zstd

  // How it ran (informational; may change from session to session).
  std::string version;
  std::uint64_t part_size = 0;
  double checkpoint_seconds = 0;
  int threads = 0;
  bool symmetry = true;
  Caps caps;

  // Where it got to.
  std::string status = "incomplete";  // "complete" or "incomplete"
  std::string stop_reason;
  std::size_t prefixes_in_plan = 0;
  std::size_t prefixes = 0;       // in this shard
  std::size_t prefixes_done = 0;  // journaled
  std::uint64_t tours = 0;        // over journaled prefixes
  std::uint64_t closed_tours = 0;
  std::uint64_t nodes = 0;  // over journaled prefixes
  std::uint64_t tour_files = 0;
  std::string created;  // ISO 8601 UTC
  std::string updated;
  double seconds = 0;  // wall time over all sessions
  int sessions = 0;

  std::string board_name() const { return std::to_string(rows) + "x" + std::to_string(cols); }

  std::string to_json() const;
  static RunManifest from_json(const std::string& text, const std::string& where);  // FormatError

  // The fields that define the run and differ between the two, e.g. {"split depth 5 vs 6"}.
  std::vector<std::string> differences(const RunManifest& other) const;
};

RunManifest read_manifest(const std::filesystem::path& dir);  // IoError / FormatError
void write_manifest(const std::filesystem::path& dir, const RunManifest& manifest);

// The job a manifest describes (threads left at 0 = choose).
JobSpec job_from_manifest(const RunManifest& manifest);
// Fills the "what was asked" part of a manifest from a resolved job.
void describe_job(const JobSpec& job, RunManifest& manifest);

std::string utc_now_iso8601();

}  // namespace knightstour
