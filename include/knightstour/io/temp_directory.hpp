#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "knightstour/io/posix_file.hpp"

namespace knightstour {

// Where temporary directories go when no parent is given: $TMPDIR, else /tmp.
std::filesystem::path default_temp_parent();

// A new directory (mkdtemp) that is removed, with what is in it, when this goes away.
// A process killed outright leaves it behind; its name says whose it is. One made `held`
// stays locked (flock on the directory) for as long as it lives, so that a later process
// can tell it was left behind (remove_left_behind).
class TempDirectory {
 public:
  enum class Lock { none, held };
  // Removes the directories named prefix + six characters in `parent` (empty: as below) that
  // no live process holds and that have not changed for a few seconds (one just made may not
  // be locked yet); returns their names.
  static std::vector<std::string> remove_left_behind(const std::filesystem::path& parent,
                                                     const std::string& prefix);

  // In `parent` (empty: $TMPDIR, else /tmp), named prefix + six random characters. Throws
  // IoError when it cannot be made (a missing parent, no permission, a full disk).
  TempDirectory(const std::filesystem::path& parent, const std::string& prefix,
                Lock lock = Lock::none);
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  PosixFile lock_;
};

}  // namespace knightstour
