#include "knightstour/frontier_run/sweep_journal.hpp"

#include <fcntl.h>

#include <charconv>
#include <string_view>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/run/manifest.hpp"

namespace knightstour {

namespace {

constexpr const char* kHeader =
    "# knightstour sweep journal v1: finished SWEEP COUNT CHECK | checkpoint SWEEP STEP CLASSES "
    "DATA_CHECKSUM CHECK\n";
constexpr std::string_view kFinished = "finished";
constexpr std::string_view kCheckpoint = "checkpoint";

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string_view::npos ? line.npos : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

// A number written as this journal writes it: decimal without a sign or leading zeros (a
// sweep "01" is no sweep), or 16 hex digits.
template <class T>
bool decimal(std::string_view s, T& value) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc{} && ptr == s.data() + s.size() && value >= 0;
}

bool hex(std::string_view s, std::uint64_t& value) {
  if (s.size() != 16) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 16);
  return ec == std::errc{} && ptr == s.data() + s.size();
}

bool is_count(std::string_view s) {
  return !s.empty() && s.size() < 400 && s.find_first_not_of("0123456789") == s.npos &&
         (s == "0" || s[0] != '0');
}

}  // namespace

SweepJournalContents read_sweep_journal(const std::filesystem::path& path, const std::string& key) {
  SweepJournalContents out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  const std::string text = read_small_file(path);
  std::size_t pos = 0;
  std::size_t line_no = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      out.torn_tail = true;
      break;
    }
    ++line_no;
    const std::string_view line(text.data() + pos, nl - pos);
    pos = nl + 1;
    out.valid_bytes = pos;
    auto bad = [&](const std::string& why) {
      return FormatError(path.string() + " line " + std::to_string(line_no) + " " + why +
                         "; the journal is written by knightstour only");
    };
    if (line_no == 1) {
      if (std::string(line) + "\n" != kHeader) throw bad("is not a sweep journal's header");
      continue;
    }
    const auto last_tab = line.rfind('\t');
    if (last_tab == std::string_view::npos) throw bad("is malformed");
    const std::string body(line.substr(0, last_tab));
    if (line.substr(last_tab + 1) != keyed_checksum(key, body)) {
      throw bad("does not check out (damaged, edited, or of another run)");
    }
    const auto f = fields_of(body);
    int sweep = 0;
    if (f.size() < 2 || !decimal(f[1], sweep)) throw bad("is malformed");
    if (f[0] == kFinished && f.size() == 3 && is_count(f[2])) {
      const auto [it, fresh] = out.finished.emplace(sweep, std::string(f[2]));
      if (!fresh && it->second != f[2])
        throw bad("finishes sweep " + std::to_string(sweep) + " a second time with another count");
    } else if (f[0] == kCheckpoint && f.size() == 5) {
      CheckpointRecord r;
      r.sweep = sweep;
      if (!decimal(f[2], r.step) || !decimal(f[3], r.classes) || !hex(f[4], r.data_checksum)) {
        throw bad("is malformed");
      }
      out.checkpoints.push_back(r);
    } else {
      throw bad("is malformed");
    }
  }
  return out;
}

void SweepJournalWriter::finished(int sweep, const std::string& count) {
  const bool due = std::chrono::steady_clock::now() - synced_at_ >= std::chrono::seconds(1);
  append(std::string(kFinished) + '\t' + std::to_string(sweep) + '\t' + count, due);
}

void SweepJournalWriter::checkpoint(const CheckpointRecord& r) {
  append(std::string(kCheckpoint) + '\t' + std::to_string(r.sweep) + '\t' + std::to_string(r.step) +
             '\t' + std::to_string(r.classes) + '\t' + hex64(r.data_checksum),
         true);
}

void SweepJournalWriter::sync() {
  if (!unsynced_) return;
  file_.sync();
  unsynced_ = false;
  synced_at_ = std::chrono::steady_clock::now();
}

void SweepJournalWriter::append(const std::string& body, bool durable) {
  if (!file_.is_open()) {
    // A torn last line (a crash mid-append) is cut, so that the next line starts a line.
    const SweepJournalContents now = read_sweep_journal(path_, key_);
    file_ = PosixFile(path_, O_WRONLY | O_CREAT);
    if (now.valid_bytes == 0) {
      file_.truncate(0);
      file_.write_all(kHeader, std::char_traits<char>::length(kHeader));
      file_.sync();
      sync_directory(path_.parent_path());  // the new file's name survives a crash too
    } else {
      file_.truncate(static_cast<off_t>(now.valid_bytes));
    }
  }
  const std::string line = body + '\t' + keyed_checksum(key_, body) + '\n';
  const off_t before = file_.size();
  try {
    file_.write_all(line.data(), line.size());
    unsynced_ = true;
    if (durable) sync();
  } catch (const IoError&) {
    // A full disk can stop the write partway: cut it, so that the journal holds whole lines
    // and the caller can treat the line as never written.
    try {
      file_.truncate(before);
    } catch (const IoError&) {
    }
    throw;
  }
}

}  // namespace knightstour
