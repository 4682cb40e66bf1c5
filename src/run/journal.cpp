#include "knightstour/run/journal.hpp"

#include <fcntl.h>

#include <charconv>
#include <cstdio>

#include "knightstour/base/errors.hpp"

namespace knightstour {

std::string journal_header(JournalKind kind, int squares) {
  std::string h = "# knightstour journal v2 (";
  h += kind == JournalKind::count ? "count" : "enumerate";
  h += "): id\tsquares\ttours\tclosed\tnodes\tseconds\t";
  h += kind == JournalKind::count
           ? "tours by last square, " + std::to_string(squares) + " columns in square-index order"
           : std::string("file\tfile_rows\tfile_bytes");
  return h + "\n";
}

std::string journal_line(const JournalRecord& r, JournalKind kind) {
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
  return line + '\n';
}

JournalWriter::JournalWriter(const std::filesystem::path& path, JournalKind kind, int squares)
    : file_(path, O_WRONLY | O_CREAT | O_APPEND), kind_(kind) {
  if (file_.size() == 0) {
    const auto header = journal_header(kind, squares);
    file_.write_all(header.data(), header.size());
  }
}

void JournalWriter::append(const std::vector<JournalRecord>& records, bool durable) {
  std::string text;
  for (const auto& r : records) text += journal_line(r, kind_);
  std::lock_guard lock(mutex_);
  const off_t before = file_.size();
  try {
    file_.write_all(text.data(), text.size());
    if (durable) file_.sync();
  } catch (const IoError&) {
    // A full disk or a file size limit can stop the write partway: cut the part written, so
    // that the journal holds whole lines only and the run verifies as it stands (the
    // enumerate_cli disk-full check failed now and then on a torn line). Lines written but
    // not synced are cut as well: the caller withdraws the tour file they name. Best effort:
    // the next session drops a torn line anyway.
    try {
      file_.truncate(before);
    } catch (const IoError&) {
    }
    throw;
  }
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

JournalContents read_journal(const std::filesystem::path& path, JournalKind kind, int squares) {
  const std::string text = read_small_file(path);
  JournalContents out;
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
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
      const auto tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab == std::string_view::npos ? line.npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    auto bad = [&](const std::string& why) {
      return FormatError(path.string() + " line " + std::to_string(line_no) + ": " + why);
    };
    std::size_t expected =
        kind == JournalKind::enumerate ? 9 : 6 + static_cast<std::size_t>(squares);
    if (kind == JournalKind::enumerate && fields.size() == 7) expected = 7;  // a v1 line
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
