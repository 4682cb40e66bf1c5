#include "knightstour/io/temp_directory.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

std::filesystem::path default_temp_parent() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

TempDirectory::TempDirectory(const std::filesystem::path& parent, const std::string& prefix) {
  const std::filesystem::path base = parent.empty() ? default_temp_parent() : parent;
  std::string name = (base / (prefix + "XXXXXX")).string();  // mkdtemp fills in the X's
  if (::mkdtemp(name.data()) == nullptr) throw_io_error("create a directory in", base, errno);
  path_ = name;
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace knightstour
