#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace knightstour::test {

// Lines of /proc/self/maps that name a file under `dir`: a mapping of a file keeps its path
// in the listing (with " (deleted)" after it once the name is gone), so 0 means this process
// maps no file of `dir`.
inline int mappings_under(const std::filesystem::path& dir) {
  std::ifstream maps("/proc/self/maps");
  int found = 0;
  for (std::string line; std::getline(maps, line);)
    found += line.find(dir.string()) != std::string::npos ? 1 : 0;
  return found;
}

}  // namespace knightstour::test
