#pragma once

#include <filesystem>
#include <string>

namespace knightstour {

// Where temporary directories go when no parent is given: $TMPDIR, else /tmp.
std::filesystem::path default_temp_parent();

// A new directory (mkdtemp) that is removed, with what is in it, when this goes away.
// A process killed outright leaves it behind; its name says whose it is.
class TempDirectory {
 public:
  // In `parent` (empty: $TMPDIR, else /tmp), named prefix + six random characters. Throws
  // IoError when it cannot be made (a missing parent, no permission, a full disk).
  TempDirectory(const std::filesystem::path& parent, const std::string& prefix);
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace knightstour
