#include "knightstour/frontier/spill.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace knightstour {

SpillMapping::SpillMapping(const std::filesystem::path& path, std::uint64_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  PosixFile file(path, O_RDONLY);
  void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, file.fd(), 0);
  if (p == MAP_FAILED) throw_io_error("map", path, errno);
  // Each pass reads the classes front to back; read ahead and let pages go behind.
  ::madvise(p, bytes, MADV_SEQUENTIAL);
  data_ = static_cast<const std::byte*>(p);
}

SpillMapping::~SpillMapping() {
  if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
}

SpillFile::SpillFile(std::filesystem::path path)
    : path_(std::move(path)), file_(path_, O_WRONLY | O_CREAT | O_TRUNC) {}

std::uint64_t SpillFile::append(const void* data, std::uint64_t bytes) {
  const std::uint64_t at = size_;
  if (bytes > 0) file_.write_all(data, bytes);
  size_ += bytes;
  return at;
}

std::shared_ptr<const SpillMapping> SpillFile::map() {
  file_.close();
  auto mapping = std::make_shared<const SpillMapping>(path_, size_);
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
  return mapping;
}

SpillFile SpillArea::create() {
  return SpillFile(directory_ / ("classes-" + std::to_string(next_++) + ".bin"));
}

PosixFile SpillArea::scratch() {
  const std::filesystem::path path =
      directory_ / ("successors-" + std::to_string(next_++) + ".bin");
  PosixFile file(path, O_RDWR | O_CREAT | O_TRUNC);
  std::filesystem::remove(path);
  return file;
}

}  // namespace knightstour
