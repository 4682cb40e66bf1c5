#include "knightstour/run/journal.hpp"

#include <fcntl.h>

#include <charconv>
#include <cstdio>
#include <string_view>
#include <utility>

#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/io/journal_lines.hpp"

namespace knightstour {

namespace {

constexpr std::string_view kChecksummedHeader = "# knightstour journal v3";

}  // namespace

std::string journal_header(const JournalFormat& format) {
  std::string h = format.key.empty() ? "# knightstour journal v2 (" : "# knightstour journal v3 (";
  h += format.kind == JournalKind::count ? "count" : "enumerate";
  h += "): id\tsquares\ttours\tclosed\tnodes\tseconds\t";
  h += format.kind == JournalKind::count
           ? "tours by last square, " + std::to_string(format.squares) +
                 " columns in square-index order"
           : std::string("file\tfile_rows\tfile_bytes");
  if (!format.key.empty()) h += "\tcheck (keyed by the run's job)";
  return h + "\n";
}

namespace {

std::string line_body(const JournalRecord& r, JournalKind kind) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.6f", r.seconds);
  std::string line = std::to_string(r.id) + '\t' + r.squares + '\t' + std::to_string(r.tours) +
                     '\t' + std::to_string(r.closed) + '\t' + std::to_string(r.nodes) + '\t' +
                     seconds;
  if (kind == JournalKind::enumerate) {
    line +=
        '\t' + r.file + '\t' + std::to_string(r.file_rows) + '\t' + std::to_string(r.file_bytes);
  } else {
    for (auto v : r.by_end) line += '\t' + std::to_string(v);
  }
  return line;
}

}  // namespace

std::string journal_line(const JournalRecord& r, const JournalFormat& format) {
  std::string line = line_body(r, format.kind);
  if (!format.key.empty()) line += '\t' + keyed_checksum(format.key, line);
  return line + '\n';
}

JournalWriter::JournalWriter(const std::filesystem::path& path, JournalFormat format)
    : file_(path, O_WRONLY | O_CREAT | O_APPEND), format_(std::move(format)) {
  if (file_.size() == 0) {
    const auto header = journal_header(format_);
    file_.write_all(header.data(), header.size());
  }
}

void JournalWriter::append(const std::vector<JournalRecord>& records, bool durable) {
  std::string text;
  for (const auto& r : records) text += journal_line(r, format_);
  std::lock_guard lock(mutex_);
  // A write cut partway is taken back (the enumerate_cli disk-full check failed now and then
  // on a torn line), and so are lines written but not synced: the caller withdraws the tour
  // file they name.
  append_whole_lines(file_, text, durable);
}

void JournalWriter::sync() {
  std::lock_guard lock(mutex_);
  file_.sync();
}

namespace {

template <class T>
bool parse_field(std::string_view field, T& value) {
  const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  return ec == std::errc{} && ptr == field.data() + field.size() && !field.empty();
}

}  // namespace

JournalContents read_journal(const std::filesystem::path& path, const JournalFormat& format) {
  const JournalKind kind = format.kind;
  const int squares = format.squares;
  const bool checked = !format.key.empty();
  const std::string text = read_small_file(path);
  const JournalLines whole = whole_lines(text);
  JournalContents out;
  out.valid_bytes = whole.valid_bytes;
  out.torn_tail = whole.torn_tail;
  for (const JournalLine& l : whole.lines) {
    const std::size_t line_no = l.number;
    std::string_view line = l.text;
    auto bad = [&](const std::string& why) {
      return FormatError(path.string() + " line " + std::to_string(line_no) + ": " + why);
    };
    if (checked) {
      // Every line but the header is a record, and checks out.
      if (line_no == 1) {
        if (std::string(line) + "\n" != journal_header(format))
          throw bad("not the header of this run's journal (v3, with checksums)");
        continue;
      }
      const auto body = checked_body(line, format.key);
      if (!body) {
        throw bad(
            "does not check out (damaged, edited, or of another job or shard); the "
            "journal is written by knightstour only");
      }
      line = *body;
    } else {
      if (line.starts_with(kChecksummedHeader)) {
        throw bad("a journal with checksums (v3) in a run whose manifest has none (format 1 to 3)");
      }
      if (line.empty() || line[0] == '#') continue;
    }
    const std::vector<std::string_view> fields = tab_fields(line);
    std::size_t expected =
        kind == JournalKind::enumerate ? 9 : 6 + static_cast<std::size_t>(squares);
    if (!checked && kind == JournalKind::enumerate && fields.size() == 7) expected = 7;  // v1
    if (fields.size() != expected) {
      throw bad("expected " + std::to_string(expected) + " tab-separated fields, found " +
                std::to_string(fields.size()));
    }
    JournalRecord r;
    r.squares = std::string(fields[1]);
    if (!parse_field(fields[0], r.id) || !parse_field(fields[2], r.tours) ||
        !parse_field(fields[3], r.closed) || !parse_field(fields[4], r.nodes) ||
        !parse_field(fields[5], r.seconds) || r.squares.empty() || r.closed > r.tours) {
      throw bad("malformed record");
    }
    if (kind == JournalKind::enumerate) {
      r.file = std::string(fields[6]);
      if (r.file.empty() || r.file.find('/') != std::string::npos) throw bad("bad file name");
      if (fields.size() == 9 &&
          (!parse_field(fields[7], r.file_rows) || !parse_field(fields[8], r.file_bytes))) {
        throw bad("bad file rows or size");
      }
    } else {
      r.by_end.resize(static_cast<std::size_t>(squares));
      std::uint64_t sum = 0;
      for (std::size_t i = 0; i < r.by_end.size(); ++i) {
        if (!parse_field(fields[6 + i], r.by_end[i])) throw bad("malformed count by last square");
        if (__builtin_add_overflow(sum, r.by_end[i], &sum)) {
          throw bad("counts by last square add up past 2^64 (a damaged or edited line)");
        }
      }
      if (sum != r.tours) throw bad("counts by last square do not add up to the tours");
    }
    out.records.push_back(std::move(r));
  }
  return out;
}

}  // namespace knightstour
