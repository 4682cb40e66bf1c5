#include "knightstour/io/posix_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "knightstour/base/errors.hpp"

namespace knightstour {

void throw_io_error(const std::string& action, const std::filesystem::path& path, int error) {
  std::string reason = std::strerror(error);
  if (error == ENOSPC) reason += " (the disk is full)";
  if (error == EFBIG) reason += " (the file size limit was reached)";
  if (error == EDQUOT) reason += " (the disk quota is exhausted)";
  throw IoError("cannot " + action + " " + path.string() + ": " + reason);
}

PosixFile::PosixFile(const std::filesystem::path& path, int flags, int mode) : path_(path) {
  // O_NONBLOCK so that a FIFO or device put where a file belongs cannot block the open;
  // only regular files (and directories, when asked for) are accepted, then I/O blocks as usual.
  do {
    fd_ = ::open(path.c_str(), flags | O_CLOEXEC | O_NONBLOCK, mode);
  } while (fd_ < 0 && errno == EINTR);
  const char* action = (flags & (O_WRONLY | O_RDWR)) ? "open for writing" : "open";
  if (fd_ < 0 && errno == ENXIO)  // a FIFO without a reader, opened for writing
    throw FormatError("cannot " + std::string(action) + " " + path.string() +
                      ": not a regular file");
  if (fd_ < 0) throw_io_error(action, path, errno);
  struct stat st {};
  const bool want_directory = (flags & O_DIRECTORY) != 0;
  if (::fstat(fd_, &st) != 0 || (want_directory ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
    ::close(fd_);
    fd_ = -1;
    throw FormatError("cannot " + std::string(action) + " " + path.string() + ": not a " +
                      (want_directory ? "directory" : "regular file"));
  }
  const int status = ::fcntl(fd_, F_GETFL);
  if (status < 0 || ::fcntl(fd_, F_SETFL, status & ~O_NONBLOCK) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw_io_error(action, path, error);
  }
}

PosixFile::~PosixFile() {
  if (fd_ >= 0) ::close(fd_);
}

PosixFile::PosixFile(PosixFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

PosixFile& PosixFile::operator=(PosixFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

void PosixFile::write_all(const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io_error("write", path_, errno);
    }
    if (n == 0) throw_io_error("write", path_, ENOSPC);
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void PosixFile::pwrite_all(const void* data, std::size_t size, off_t offset) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd_, p, size, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io_error("write", path_, errno);
    }
    if (n == 0) throw_io_error("write", path_, ENOSPC);
    p += n;
    offset += n;
    size -= static_cast<std::size_t>(n);
  }
}

std::size_t PosixFile::read_some(void* data, std::size_t size) {
  while (true) {
    const ssize_t n = ::read(fd_, data, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw_io_error("read", path_, errno);
  }
}

void PosixFile::pread_all(void* data, std::size_t size, off_t offset) const {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::pread(fd_, p, size, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io_error("read", path_, errno);
    }
    if (n == 0) throw_io_error("read", path_, EIO);  // shorter than what was written to it
    p += n;
    offset += n;
    size -= static_cast<std::size_t>(n);
  }
}

void PosixFile::sync() {
  if (::fsync(fd_) != 0) throw_io_error("sync", path_, errno);
}

void PosixFile::truncate(off_t length) {
  if (::ftruncate(fd_, length) != 0) throw_io_error("truncate", path_, errno);
  if (::lseek(fd_, length, SEEK_SET) < 0) throw_io_error("seek in", path_, errno);
}

off_t PosixFile::size() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw_io_error("stat", path_, errno);
  return st.st_size;
}

void PosixFile::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0 && errno != EINTR) throw_io_error("close", path_, errno);
}

void sync_directory(const std::filesystem::path& directory) {
  PosixFile dir(directory.empty() ? "." : directory, O_RDONLY | O_DIRECTORY);
  if (::fsync(dir.fd()) != 0 && errno != EINVAL) throw_io_error("sync directory", directory, errno);
}

void durable_rename(const std::filesystem::path& from, const std::filesystem::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) throw_io_error("rename", from, errno);
  sync_directory(to.parent_path());
}

void check_replaceable(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    throw UsageError(path.string() +
                     " is not a regular file (a device, a pipe or a directory): knightstour "
                     "writes a new file and renames it into place, which would replace it; "
                     "give the path of a file");
  }
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  check_replaceable(path);
  auto tmp = path;
  tmp += kTempSuffix;
  try {
    PosixFile file(tmp, O_WRONLY | O_CREAT | O_TRUNC);
    file.write_all(content.data(), content.size());
    file.sync();
    file.close();
  } catch (const IoError&) {
    ::unlink(tmp.c_str());  // a full disk must not leave an empty .tmp behind
    throw;
  }
  durable_rename(tmp, path);
}

std::string read_small_file(const std::filesystem::path& path) {
  PosixFile file(path, O_RDONLY);
  std::string out;
  char buffer[65536];
  while (const auto n = file.read_some(buffer, sizeof buffer)) out.append(buffer, n);
  return out;
}

}  // namespace knightstour
