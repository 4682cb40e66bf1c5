#pragma once

#include <filesystem>
#include <vector>

#include "knightstour/frontier_run/merge_frontier.hpp"

namespace knightstour {

// merge_frontier_runs() of residue units (merge_frontier.hpp says what it checks).
FrontierMergeReport merge_residue_units(const std::vector<std::filesystem::path>& inputs,
                                        const std::filesystem::path& out,
                                        const Provenance& provenance);

}  // namespace knightstour
