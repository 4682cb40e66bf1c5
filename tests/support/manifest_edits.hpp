#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"

namespace knightstour::test {

using ManifestEdits = std::vector<std::pair<std::string, std::string>>;

// Each edit (the first occurrence of `from` made `to`) of the manifest text `good` is refused
// by Manifest::from_json (RunManifest's, or a method's own).
template <class Manifest>
void expect_each_refused(const std::string& good, const ManifestEdits& edits) {
  for (const auto& [from, to] : edits) {
    std::string text = good;
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    EXPECT_THROW(Manifest::from_json(text, "m"), FormatError) << to;
  }
}

}  // namespace knightstour::test
