#include "knightstour/io/temp_directory.hpp"

#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

TempDirectory::TempDirectory(const std::filesystem::path& parent, const std::string& prefix) {
  std::filesystem::path base = parent;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  const std::string pattern = (base / (prefix + "XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) throw_io_error("create a directory in", base, errno);
  path_ = name.data();
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace knightstour
