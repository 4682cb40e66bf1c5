#pragma once

#include <string>

namespace knightstour {

// 16 hex digits of FNV-1a (64-bit) over `text`: the checksum of manifests and journal lines.
// tests/data/checksum_vectors.json holds values the Python package is tested against too.
std::string fnv1a_hex(const std::string& text);

// The same over `key`, a newline and `text`: keyed by a run's job, a line or manifest of
// another job does not check out as this one's.
std::string keyed_checksum(const std::string& key, const std::string& text);

}  // namespace knightstour
