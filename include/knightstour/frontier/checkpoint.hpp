#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "knightstour/frontier/frontier_counter.hpp"

namespace knightstour {

// A sweep's state between two steps, saved so that a run killed outright resumes there.
//
// File layout (little-endian, every field 8 bytes, so the arrays stay aligned when mapped):
//   magic "KTFRONT1" | sweep | next_step | limbs K | parts P | classes | checksum | reserved
//   P part sizes n_p
//   for each part: n_p keys, then n_p counts of K limbs
// The checksum covers everything after the header (a multiply-add over 64-bit words), so a
// torn or damaged file is refused rather than resumed from. Written to a temp file, synced
// and renamed over the last one: a crash leaves the old checkpoint or the new, never half.
struct CheckpointHeader {
  int sweep = 0;  // which sweep of the job (frontier_job's order)
  int next_step = 0;
  int limbs = 1;
  std::uint64_t parts = 0;
  std::uint64_t classes = 0;
};

// Writes `state` for sweep `sweep`; returns the bytes written. Throws IoError.
std::uint64_t write_checkpoint(const std::filesystem::path& path, int sweep,
                               const FrontierState& state);

// Reads the header only (nothing when there is no file); throws FormatError when it is not a
// checkpoint.
std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& path);

// Maps the checkpoint and returns the state it holds (its classes stay in the file, paged in
// as the sweep reads them). Throws FormatError when the checksum or sizes do not match.
FrontierState load_checkpoint(const std::filesystem::path& path);

}  // namespace knightstour
