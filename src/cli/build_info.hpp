#pragma once

namespace knightstour::cli {

// What `knightstour --version` prints; generated at build time (cmake/BuildInfo.cmake).
struct BuildInfo {
  const char* version;     // the project version in CMakeLists.txt
  const char* git_commit;  // short hash, "-modified" when the tree had changes; "unknown"
  const char* compiler;    // compiler id and version
  const char* build_type;  // CMAKE_BUILD_TYPE
};

const BuildInfo& build_info();

}  // namespace knightstour::cli
