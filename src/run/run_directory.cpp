#include "knightstour/run/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <optional>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/tour_file_reader.hpp"

namespace knightstour {

namespace fs = std::filesystem;

RunDirectory::RunDirectory(fs::path dir) : dir_(std::move(dir)) {
  lock_ = PosixFile(dir_ / ".lock", O_RDWR | O_CREAT);
  if (::flock(lock_.fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      throw UsageError("run directory " + dir_.string() +
                       " is in use by another knightstour process");
    }
    throw_io_error("lock", dir_ / ".lock", errno);
  }
}

RunDirectory RunDirectory::create(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError("cannot create run directory " + dir.string() + ": " + ec.message());
  if (!fs::is_directory(dir)) throw UsageError(dir.string() + " is not a directory");
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (name == "manifest.json" || name.rfind("journal-", 0) == 0 || name.rfind("tours-", 0) == 0) {
      throw UsageError(
          dir.string() +
          " already holds a run: add --resume to continue it, or choose another directory");
    }
  }
  return RunDirectory(dir);
}

RunDirectory RunDirectory::open(const fs::path& dir) {
  if (!fs::exists(dir / "manifest.json")) {
    throw UsageError(dir.string() + " holds no run to resume (no manifest.json)");
  }
  return RunDirectory(dir);
}

fs::path RunDirectory::journal_path(int shard) const {
  return dir_ / ("journal-" + std::to_string(shard) + ".tsv");
}

std::string RunDirectory::tour_file_name(int shard, std::uint64_t part,
                                         const std::string& extension) {
  return "tours-" + std::to_string(shard) + "-" + std::to_string(part) + extension;
}

std::uint64_t count_tours_in_file(const fs::path& path, BoardShape shape) {
  TourFileReader reader(path, shape);
  if (tour_file_type(path).format == TourFormat::npy &&
      tour_file_type(path).compression == Compression::none) {
    // The header gives the rows; the size must match it exactly.
    const auto bytes = static_cast<std::uint64_t>(fs::file_size(path));
    const std::uint64_t row_bytes = static_cast<std::uint64_t>(shape.squares()) *
                                    static_cast<std::uint64_t>(npy_item_size(shape.squares()));
    if (bytes != 128 + *reader.declared_rows() * row_bytes) {
      throw FormatError(path.string() + ": size does not match the rows its header declares");
    }
    return *reader.declared_rows();
  }
  std::vector<std::uint32_t> tour;
  while (reader.next(tour)) {
  }
  return reader.rows_read();
}

RunDirectory::Recovery RunDirectory::recover(const RunManifest& m) {
  Recovery out;
  const bool enumerate = m.command == "enumerate";
  const int squares = m.rows * m.cols;
  const auto kind = enumerate ? JournalKind::enumerate : JournalKind::count;
  const int shard = m.shard.index;
  const std::string prefix = "tours-" + std::to_string(shard) + "-";

  // 1. Temp files were never published: remove them.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    const auto name = entry.path().filename().string();
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) {
      fs::remove(entry.path());
      out.cleaned.push_back("removed unfinished " + name);
    }
  }

  // 2. The journal, without a torn last line.
  const auto journal = journal_path(shard);
  JournalContents contents;
  if (fs::exists(journal)) contents = read_journal(journal, kind, squares);
  bool rewrite = contents.torn_tail;
  if (contents.torn_tail)
    out.cleaned.push_back("dropped a torn last line of " + journal.filename().string());

  // Each prefix at most once: a duplicate line means the journal was tampered with.
  std::map<std::size_t, std::size_t> seen;
  for (const auto& r : contents.records) {
    if (seen[r.id]++)
      throw FormatError(journal.string() + ": prefix " + std::to_string(r.id) +
                        " is journaled twice");
  }

  std::vector<JournalRecord> kept;
  if (!enumerate) {
    kept = std::move(contents.records);
  } else {
    // 3. A tour file counts only if its journal lines account for exactly its tours.
    std::map<std::string, std::uint64_t> journaled;
    for (const auto& r : contents.records) journaled[r.file] += r.tours;
    // "tours-<shard>-<part>.<extension>": the part number, or nothing for other names.
    auto part_of = [&](const std::string& name) -> std::optional<std::uint64_t> {
      if (name.rfind(prefix, 0) != 0) return std::nullopt;
      std::size_t i = prefix.size();
      std::uint64_t part = 0;
      const std::size_t digits_start = i;
      while (i < name.size() && name[i] >= '0' && name[i] <= '9')
        part = part * 10 + static_cast<std::uint64_t>(name[i++] - '0');
      if (i == digits_start || i >= name.size() || name[i] != '.') return std::nullopt;
      return part;
    };
    std::map<std::string, bool> file_ok;
    const BoardShape shape{m.rows, m.cols};
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const auto name = entry.path().filename().string();
      const auto part = part_of(name);
      if (!part) continue;
      out.next_part = std::max<std::uint64_t>(out.next_part, *part + 1);
      bool ok = false;
      const auto it = journaled.find(name);
      if (it != journaled.end()) {
        try {
          ok = count_tours_in_file(entry.path(), shape) == it->second;
        } catch (const FormatError&) {
          ok = false;
        }
      }
      file_ok[name] = ok;
      if (!ok) {
        fs::remove(entry.path());
        out.cleaned.push_back("removed " + name + " (its prefixes were not all journaled)");
      }
    }
    for (auto& r : contents.records) {
      const bool no_tours = r.file == "-" && r.tours == 0;
      if (no_tours || (file_ok.count(r.file) && file_ok[r.file])) {
        kept.push_back(std::move(r));
      } else {
        rewrite = true;
      }
    }
    if (kept.size() != seen.size()) {
      out.cleaned.push_back("forgot " + std::to_string(seen.size() - kept.size()) +
                            " journal lines whose tour file was incomplete or missing");
    }
  }
  if (rewrite) {
    std::string text = journal_header(kind, squares);
    for (const auto& r : kept) text += journal_line(r, kind);
    write_file_atomically(journal, text);
  }
  out.records = std::move(kept);
  return out;
}

}  // namespace knightstour
