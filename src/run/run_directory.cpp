#include "knightstour/run/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

void check_readable_run_path(const fs::path& dir) {
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (!fs::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory) {
      throw UsageError("cannot read " + dir.string() + ": " + ec.message());
    }
    throw UsageError(dir.string() + " does not exist");
  }
  if (!fs::is_directory(status)) throw UsageError(dir.string() + " is not a directory");
  fs::directory_iterator listing(dir, ec);
  if (ec) throw UsageError("cannot read " + dir.string() + ": " + ec.message());
  const auto manifest = fs::symlink_status(run_layout::manifest_path(dir), ec);
  if (fs::exists(manifest) && !fs::is_regular_file(fs::status(run_layout::manifest_path(dir), ec)))
    throw UsageError(run_layout::manifest_path(dir).string() + " is not a regular file");
}

RunDirectory::RunDirectory(fs::path dir) : dir_(std::move(dir)) {
  auto in_use = [&] {
    return UsageError("run directory " + dir_.string() +
                      " is in use by another knightstour process");
  };
  // The directory itself is locked: a second writer cannot remove it from under the first,
  // as it can remove .lock and create another.
  dir_lock_ = PosixFile(dir_, O_RDONLY | O_DIRECTORY);
  if (::flock(dir_lock_.fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) throw in_use();
    // A file system that cannot lock a directory (some network ones) keeps .lock alone.
    dir_lock_ = PosixFile();
  }
  // .lock too, for knightstour builds that lock only it.
  lock_ = PosixFile(dir_ / run_layout::kLock, O_RDWR | O_CREAT);
  if (::flock(lock_.fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) throw in_use();
    throw_io_error("lock", dir_ / run_layout::kLock, errno);
  }
}

RunDirectory RunDirectory::create(const fs::path& dir, const std::string& occupied_hint) {
  if (dir.empty()) throw UsageError("the run directory name is empty");
  std::error_code ec;
  fs::create_directories(dir, ec);
  // A path that names a file or cannot name a directory is bad input; the rest (permissions,
  // a full disk) is the system's.
  if (ec == std::errc::not_a_directory || ec == std::errc::file_exists ||
      ec == std::errc::invalid_argument || ec == std::errc::filename_too_long ||
      ec == std::errc::too_many_symbolic_link_levels || (!ec && !fs::is_directory(dir))) {
    throw UsageError("cannot use " + dir.string() +
                     " as a run directory: " + (ec ? ec.message() : "not a directory"));
  }
  if (ec) throw IoError("cannot create run directory " + dir.string() + ": " + ec.message());
  // Lock first, then look: a process that looked first could miss a run another process
  // starts between its look and its lock, and both would write the same files.
  RunDirectory run(dir);
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (run_layout::holds_run_file(entry.path().filename().string())) {
      throw UsageError(dir.string() + " already holds a run: " + occupied_hint);
    }
  }
  return run;
}

RunDirectory RunDirectory::open(const fs::path& dir) {
  if (!fs::exists(run_layout::manifest_path(dir))) {
    throw UsageError(dir.string() + " holds no run to resume (no " + run_layout::kManifest + ")");
  }
  return RunDirectory(dir);
}

NewRunDirectory NewRunDirectory::begin(const fs::path& dir, const std::string& occupied_hint) {
  fs::path destination = dir.lexically_normal();
  if (destination.filename().empty()) destination = destination.parent_path();
  if (destination.empty()) throw UsageError("the run directory name is empty");
  std::error_code ec;
  if (fs::exists(destination, ec)) {
    if (!fs::is_directory(destination, ec)) {
      throw UsageError("cannot use " + dir.string() + " as a run directory: not a directory");
    }
    if (!fs::is_empty(destination, ec)) {
      bool run = false;
      for (const auto& entry : fs::directory_iterator(destination)) {
        run = run || run_layout::holds_run_file(entry.path().filename().string());
      }
      throw UsageError(dir.string() + (run ? " already holds a run: " : " is not empty: ") +
                       occupied_hint);
    }
  }
  const fs::path temp = destination.string() + kTempSuffix;
  if (fs::exists(temp, ec)) {
    // Left by a process killed while building it, unless one is building it now.
    PosixFile held(temp, O_RDONLY | O_DIRECTORY);
    if (::flock(held.fd(), LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
      throw UsageError(temp.string() + " is being written by another knightstour process");
    }
    fs::remove_all(temp, ec);
    if (ec) throw IoError("cannot remove " + temp.string() + ": " + ec.message());
  }
  return NewRunDirectory(destination, RunDirectory::create(temp, occupied_hint));
}

void NewRunDirectory::publish() {
  sync_directory(building_.dir());
  durable_rename(building_.dir(), destination_);
}

std::optional<int> RunDirectory::holder(const fs::path& dir) {
  // A flock shows in /proc/locks as "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF", the
  // device numbers in hex.
  std::vector<std::string> ids;
  for (const fs::path& p : {dir, dir / run_layout::kLock}) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) continue;
    char id[64];
    std::snprintf(id, sizeof id, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                  static_cast<unsigned long long>(st.st_ino));
    ids.emplace_back(id);
  }
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string number, kind, mode, access, pid, id;
    fields >> number >> kind >> mode >> access >> pid >> id;
    if (kind == "FLOCK" && std::find(ids.begin(), ids.end(), id) != ids.end()) {
      int number_of_pid = 0;
      const auto [end, error] = std::from_chars(pid.data(), pid.data() + pid.size(), number_of_pid);
      if (error == std::errc{} && end == pid.data() + pid.size()) return number_of_pid;
    }
  }
  return std::nullopt;
}

fs::path RunDirectory::journal_path(int shard) const {
  return dir_ / run_layout::journal_name(shard);
}

RunDirectory::Recovery RunDirectory::recover(const RunManifest& m) {
  const int shard = m.shard.index;
  auto found = read_committed(dir_, m, shard, FileCheck::rows);
  const auto journal = journal_path(shard);
  if (!found.duplicates.empty()) {
    throw FormatError(journal.string() + ": prefix " + std::to_string(found.duplicates.front()) +
                      " is journaled twice");
  }
  Recovery out;
  for (const auto& name : found.temp_files) {
    fs::remove(dir_ / name);
    out.cleaned.push_back("removed unfinished " + name);
  }
  auto unfinished = found.unnamed_files;
  unfinished.insert(unfinished.end(), found.unmatched_files.begin(), found.unmatched_files.end());
  for (const auto& name : unfinished) {
    fs::remove(dir_ / name);
    out.cleaned.push_back("removed " + name + " (its prefixes were not all journaled)");
  }
  if (!found.torn_journals.empty())
    out.cleaned.push_back("dropped a torn last line of " + journal.filename().string());
  if (!found.dropped.empty()) {
    out.cleaned.push_back("forgot " + std::to_string(found.dropped.size()) +
                          " journal lines whose tour file was incomplete or missing");
  }
  if (!found.torn_journals.empty() || !found.dropped.empty()) {
    const JournalFormat format = journal_format(m);
    std::string text = journal_header(format);
    for (const auto& r : found.records) text += journal_line(r, format);
    write_file_atomically(journal, text);
  }
  out.records = std::move(found.records);
  out.next_part = found.next_part;
  return out;
}

}  // namespace knightstour
