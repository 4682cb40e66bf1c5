#include "knightstour/run/committed_journal.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/io/npy.hpp"
#include "knightstour/io/tour_file_reader.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

std::uint64_t count_tours_in_file(const fs::path& path, BoardShape shape) {
  TourFileReader reader(path, shape);
  const auto type = tour_file_type(path);
  if (type.format == TourFormat::npy && type.compression == Compression::none) {
    // The header gives the rows, the header size and the item type (a file numpy re-saved
    // may differ from ours in both); the size must match it exactly.
    const auto bytes = static_cast<std::uint64_t>(fs::file_size(path));
    const std::uint64_t row_bytes = static_cast<std::uint64_t>(shape.squares()) *
                                    static_cast<std::uint64_t>(reader.item_size());
    const std::uint64_t rows = *reader.declared_rows();
    const std::uint64_t head = reader.header_size();
    if (bytes < head || (bytes - head) % row_bytes != 0 || (bytes - head) / row_bytes != rows) {
      throw FormatError(path.string() + ": size does not match the rows its header declares");
    }
    return *reader.declared_rows();
  }
  std::vector<std::uint32_t> tour;
  while (reader.next(tour)) {
  }
  return reader.rows_read();
}

namespace {

// Whether tour file `path` holds the `tours` its journal lines name. The rows and size the
// lines recorded when the file was published (`recorded`: (rows, bytes), nullptr when they
// recorded none) stand in for reading it (a resume must not re-read every finished file):
// when the lines' tours add up to the rows and the file has the size, it is trusted; a file
// of the right size with flipped bytes is verify's to find. Otherwise (journal v1 lines,
// which lack them, or a file numpy re-saved in another dtype) its rows are counted, unless
// `check` says not to.
bool file_matches(const fs::path& path, std::uint64_t tours,
                  const std::set<std::pair<std::uint64_t, std::uint64_t>>* recorded,
                  BoardShape shape, FileCheck check) {
  if (recorded != nullptr && recorded->size() == 1) {
    const auto [rows, bytes] = *recorded->begin();
    std::error_code ec;
    const auto size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
    if (!ec && bytes == size && rows == tours) return true;
  }
  if (check != FileCheck::rows) return true;
  try {
    return count_tours_in_file(path, shape) == tours;
  } catch (const FormatError&) {
    return false;
  }
}

}  // namespace

JournalFormat journal_format(const RunManifest& m) {
  return {m.command == Command::enumerate ? JournalKind::enumerate : JournalKind::count,
          m.squares(), m.checksums ? dfs_job_key(m) : std::string()};
}

CommittedJournal read_committed(const fs::path& dir, const RunManifest& m, std::optional<int> shard,
                                FileCheck check) {
  CommittedJournal out;
  const bool enumerate = m.command == Command::enumerate;
  const JournalFormat format = journal_format(m);
  const BoardShape shape{m.rows, m.cols};

  std::vector<fs::path> journals;
  std::vector<std::string> tour_files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (run_layout::is_temp_name(name)) {
      out.temp_files.push_back(name);
    } else if (run_layout::is_journal_name(name)) {
      if (!shard || name == run_layout::journal_name(*shard)) journals.push_back(entry.path());
    } else if (const auto file = run_layout::parse_tour_file_name(name)) {
      if (shard && file->shard != *shard) continue;
      out.next_part = std::max(out.next_part, file->part + 1);
      tour_files.push_back(name);
    }
  }
  std::sort(journals.begin(), journals.end());
  std::sort(tour_files.begin(), tour_files.end());

  std::vector<JournalRecord> complete;
  std::map<std::size_t, int> lines_of;
  for (const auto& path : journals) {
    auto contents = read_journal(path, format);
    if (contents.torn_tail) out.torn_journals.push_back(path.filename().string());
    for (auto& r : contents.records) {
      if (lines_of[r.id]++ == 1) out.duplicates.push_back(r.id);
      complete.push_back(std::move(r));
    }
  }
  if (!enumerate) {
    out.records = std::move(complete);
    out.unnamed_files = std::move(tour_files);  // a count run has no tour files
    return out;
  }

  std::map<std::string, std::uint64_t> journaled;  // tours by the file the lines name
  // What the lines recorded of each file when it was published: (rows, bytes).
  std::map<std::string, std::set<std::pair<std::uint64_t, std::uint64_t>>> recorded_of;
  for (const auto& r : complete) {
    if (r.file == "-") continue;
    add_checked(journaled[r.file], r.tours, r.file);
    if (r.file_bytes > 0) recorded_of[r.file].insert({r.file_rows, r.file_bytes});
  }
  std::set<std::string> good;
  for (const auto& name : tour_files) {
    const auto it = journaled.find(name);
    if (it == journaled.end()) {
      out.unnamed_files.push_back(name);
      continue;
    }
    const auto recorded = recorded_of.find(name);
    if (file_matches(dir / name, it->second,
                     recorded == recorded_of.end() ? nullptr : &recorded->second, shape, check)) {
      good.insert(name);
    } else {
      out.unmatched_files.push_back(name);
    }
  }
  for (const auto& [name, tours] : journaled) {
    if (!std::binary_search(tour_files.begin(), tour_files.end(), name))
      out.missing_files.push_back(name);
  }
  for (auto& r : complete) {
    if ((r.file == "-" && r.tours == 0) || good.count(r.file)) {
      out.records.push_back(std::move(r));
    } else {
      out.dropped.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace knightstour
