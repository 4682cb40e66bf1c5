#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>

namespace knightstour {

// Appended to a file's name while it is being written; renamed away when it is complete.
inline constexpr const char* kTempSuffix = ".tmp";

// A file descriptor that reports every failure as an IoError naming the file and the
// reason (disk full, file size limit, permission), and never writes partially in silence.
class PosixFile {
 public:
  PosixFile() = default;
  PosixFile(const std::filesystem::path& path, int flags, int mode = 0644);  // open(2)
  ~PosixFile();
  PosixFile(PosixFile&& other) noexcept;
  PosixFile& operator=(PosixFile&& other) noexcept;
  PosixFile(const PosixFile&) = delete;
  PosixFile& operator=(const PosixFile&) = delete;

  bool is_open() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }

  void write_all(const void* data, std::size_t size);
  void pwrite_all(const void* data, std::size_t size, off_t offset);
  // Reads up to size bytes; returns how many (0 at the end of the file).
  std::size_t read_some(void* data, std::size_t size);
  // Reads exactly size bytes at offset; a file shorter than that is an IoError.
  void pread_all(void* data, std::size_t size, off_t offset) const;
  void sync();                  // fsync: the data is on disk when it returns
  void truncate(off_t length);  // also moves the write position to `length`
  off_t size() const;
  void close();

 private:
  int fd_ = -1;
  std::filesystem::path path_;
};

// "cannot write /x/y: No space left on device (the disk is full)".
[[noreturn]] void throw_io_error(const std::string& action, const std::filesystem::path& path,
                                 int error);

// fsync on a directory, so a rename or a new file in it survives a crash.
void sync_directory(const std::filesystem::path& directory);

// A file written whole goes to PATH.tmp and is renamed over PATH. Throws UsageError when
// PATH exists and is no regular file (a device such as /dev/null, a pipe, a directory): the
// rename would replace it, and as root even /dev/null.
void check_replaceable(const std::filesystem::path& path);

// rename(2), then fsync of the directory.
void durable_rename(const std::filesystem::path& from, const std::filesystem::path& to);

// Writes a whole file atomically: temp file, fsync, rename, fsync of the directory.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

// Reads a whole (small) file; throws IoError when it cannot.
std::string read_small_file(const std::filesystem::path& path);

}  // namespace knightstour
