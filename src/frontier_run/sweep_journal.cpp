#include "knightstour/frontier_run/sweep_journal.hpp"

#include <fcntl.h>

#include <charconv>
#include <string_view>

#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/io/journal_lines.hpp"

namespace knightstour {

namespace {

constexpr const char* kHeader =
    "# knightstour sweep journal v1: finished SWEEP COUNT CHECK | checkpoint SWEEP STEP CLASSES "
    "DATA_CHECKSUM CHECK\n";
constexpr std::string_view kFinished = "finished";
constexpr std::string_view kCheckpoint = "checkpoint";

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
  const JournalLines whole = whole_lines(text);
  out.valid_bytes = whole.valid_bytes;
  out.torn_tail = whole.torn_tail;
  for (const JournalLine& line : whole.lines) {
    auto bad = [&](const std::string& why) {
      return FormatError(path.string() + " line " + std::to_string(line.number) + " " + why +
                         "; the journal is written by knightstour only");
    };
    if (line.number == 1) {
      if (std::string(line.text) + "\n" != kHeader) throw bad("is not a sweep journal's header");
      continue;
    }
    if (line.text.find('\t') == std::string_view::npos) throw bad("is malformed");
    const auto body = checked_body(line.text, key);
    if (!body) throw bad("does not check out (damaged, edited, or of another run)");
    const auto f = tab_fields(*body);
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
  // A full disk can stop the write partway: it is cut back, and the caller can treat the line
  // as never written.
  append_whole_lines(file_, line, durable);
  unsynced_ = !durable;
  if (durable) synced_at_ = std::chrono::steady_clock::now();
}

}  // namespace knightstour
