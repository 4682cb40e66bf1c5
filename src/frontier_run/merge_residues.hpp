#pragma once

#include <filesystem>
#include <vector>

#include "knightstour/frontier_run/merge_frontier.hpp"

namespace knightstour {

// The manifest of the frontier run in `dir` once it checks out as verify would check it
// (FormatError naming the input and its problem). A run over MPI ranks is the directory of its
// ranks' shares, which verify has found to agree: rank 0's manifest is returned.
FrontierManifest verified_manifest(const std::filesystem::path& dir);

// Writes the merged run's manifest as the new run directory `out`, built whole beside its
// place and renamed there: a merge killed part-way leaves nothing (merge_frontier.cpp).
void publish_merged_run(const std::filesystem::path& out, const FrontierManifest& merged);

// merge_frontier_runs() of residue units (merge_frontier.hpp says what it checks).
FrontierMergeReport merge_residue_units(const std::vector<std::filesystem::path>& inputs,
                                        const std::filesystem::path& out,
                                        const Provenance& provenance);

}  // namespace knightstour
