#pragma once

// A manifest's common fields as JSON, for the layer of each other method, which writes and
// reads its own section beside them in the same document, parsed once: private to the
// library, as public headers name no third-party type.

#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/run/manifest.hpp"

namespace knightstour {

// The fields every method's manifest holds, under `format_version`.
nlohmann::json manifest_common_fields(const RunManifest& m, int format_version);
// RunManifest::from_json of a parsed document: the format, version and method checked, the
// common fields read, and the enumerator's section when the method is dfs.
RunManifest manifest_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace knightstour
