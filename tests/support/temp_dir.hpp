#pragma once

#include <filesystem>
#include <string>

#include "knightstour/io/temp_directory.hpp"

namespace knightstour::test {

// A fresh directory under the system temp dir, removed with everything in it at the end.
class TempDir : public TempDirectory {
 public:
  TempDir() : TempDirectory({}, "knightstour-test-") {}
  std::filesystem::path operator/(const std::string& name) const { return path() / name; }
};

}  // namespace knightstour::test
