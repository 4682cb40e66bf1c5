// Manifests: parsed into a typed manifest that writes back to the same manifest, or a
// FormatError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"
#include "knightstour/run/manifest.hpp"

using namespace knightstour;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const RunManifest m = RunManifest::from_json(text, "fuzz");
    if (m.method == Method::frontier) {  // its section is its own layer's to read
      const FrontierManifest f = FrontierManifest::from_json(text, "fuzz");
      const FrontierManifest again = FrontierManifest::from_json(f.to_json(), "fuzz");
      if (!(f.frontier == again.frontier) || again.to_json() != f.to_json()) std::abort();
      return 0;
    }
    const RunManifest again = RunManifest::from_json(m.to_json(), "fuzz");
    if (!m.differences(again).empty() || again.to_json() != m.to_json()) std::abort();
  } catch (const FormatError&) {
  }
  return 0;
}
