#include "frontier/store/spill.hpp"

#include <fcntl.h>

#include <string>

namespace knightstour {

ClassFile::ClassFile(PosixFile file, std::uint64_t bytes) : file_(std::move(file)), size_(bytes) {
  // Readers go front to back: a larger read-ahead window.
  ::posix_fadvise(file_.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
}

ClassFile::ClassFile(const std::filesystem::path& path) : file_(path, O_RDONLY) {
  size_ = static_cast<std::uint64_t>(file_.size());
  ::posix_fadvise(file_.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
}

void ClassFile::read(void* out, std::uint64_t bytes, std::uint64_t offset) const {
  if (bytes > 0) file_.pread_all(out, bytes, static_cast<off_t>(offset));
}

std::uint64_t SpillFile::append(const void* data, std::uint64_t bytes) {
  const std::uint64_t at = size_;
  if (bytes > 0) file_.write_all(data, bytes);
  size_ += bytes;
  return at;
}

std::shared_ptr<const ClassFile> SpillFile::finish() {
  return std::make_shared<const ClassFile>(std::move(file_), size_);
}

PosixFile SpillArea::scratch(const char* what) {
  const std::filesystem::path path =
      directory_ / (std::string(what) + "-" + std::to_string(next_.fetch_add(1)) + ".bin");
  PosixFile file(path, O_RDWR | O_CREAT | O_TRUNC);
  std::filesystem::remove(path);
  return file;
}

}  // namespace knightstour
