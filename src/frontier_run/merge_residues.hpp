#pragma once

#include <filesystem>
#include <vector>

#include "knightstour/frontier_run/merge_frontier.hpp"

namespace knightstour {

// Writes the merged run's manifest as the new run directory `out`, built whole beside its
// place and renamed there: a merge killed part-way leaves nothing (merge_frontier.cpp).
void publish_merged_run(const std::filesystem::path& out, const FrontierManifest& merged);

// merge_frontier_runs() of residue units (merge_frontier.hpp says what it checks).
FrontierMergeReport merge_residue_units(const std::vector<std::filesystem::path>& inputs,
                                        const std::filesystem::path& out,
                                        const Provenance& provenance);

}  // namespace knightstour
