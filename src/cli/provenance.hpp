#pragma once

#include <nlohmann/json_fwd.hpp>

#include "knightstour/run/manifest.hpp"

namespace knightstour::cli {

// main() keeps the command line here, shell-quoted, for manifests and JSON.
void remember_command_line(int argc, char** argv);

// This build's commit, the command line, the host and its CPU model.
Provenance provenance();

// Adds version, git_commit, command_line, host and cpu_model to a JSON result.
void add_provenance(nlohmann::json& j);

}  // namespace knightstour::cli
