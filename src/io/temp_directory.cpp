#include "knightstour/io/temp_directory.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

TempDirectory::TempDirectory(const std::filesystem::path& parent, const std::string& prefix) {
  std::filesystem::path base = parent;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  std::string name = (base / (prefix + "XXXXXX")).string();  // mkdtemp fills in the X's
  if (::mkdtemp(name.data()) == nullptr) throw_io_error("create a directory in", base, errno);
  path_ = name;
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace knightstour
