#include "knightstour/io/temp_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <string>
#include <system_error>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

std::filesystem::path default_temp_parent() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

TempDirectory::TempDirectory(const std::filesystem::path& parent, const std::string& prefix,
                             Lock lock) {
  const std::filesystem::path base = parent.empty() ? default_temp_parent() : parent;
  std::string name = (base / (prefix + "XXXXXX")).string();  // mkdtemp fills in the X's
  if (::mkdtemp(name.data()) == nullptr) throw_io_error("create a directory in", base, errno);
  path_ = name;
  if (lock == Lock::held) {
    lock_ = PosixFile(path_, O_RDONLY | O_DIRECTORY);
    ::flock(lock_.fd(), LOCK_EX | LOCK_NB);  // where no lock is kept, others remove nothing
  }
}

std::vector<std::string> TempDirectory::remove_left_behind(const std::filesystem::path& parent,
                                                           const std::string& prefix) {
  namespace fs = std::filesystem;
  const fs::path base = parent.empty() ? default_temp_parent() : parent;
  std::vector<std::string> removed;
  std::error_code ec;
  for (auto it = fs::directory_iterator(base, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() != prefix.size() + 6) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (std::difftime(std::time(nullptr), st.st_mtime) < 10) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    // Held by its process (a live count): left alone. The lock is kept while removing.
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
      if (!ignored) removed.push_back(name);
    }
    ::close(fd);
  }
  return removed;
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace knightstour
