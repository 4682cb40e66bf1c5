#include "knightstour/io/journal_lines.hpp"

#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"

namespace knightstour {

JournalLines whole_lines(std::string_view text) {
  JournalLines out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      out.torn_tail = true;
      break;
    }
    out.lines.push_back({out.lines.size() + 1, text.substr(pos, nl - pos)});
    pos = nl + 1;
    out.valid_bytes = pos;
  }
  return out;
}

std::vector<std::string_view> tab_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string_view::npos ? line.npos : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

std::optional<std::string_view> checked_body(std::string_view line, const std::string& key) {
  const auto last_tab = line.rfind('\t');
  if (last_tab == std::string_view::npos) return std::nullopt;
  const std::string_view body = line.substr(0, last_tab);
  if (line.substr(last_tab + 1) != keyed_checksum(key, std::string(body))) return std::nullopt;
  return body;
}

void append_whole_lines(PosixFile& file, std::string_view lines, bool durable) {
  const off_t before = file.size();
  try {
    file.write_all(lines.data(), lines.size());
    if (durable) file.sync();
  } catch (const IoError&) {
    // Best effort: should the cut fail too, the next session drops a torn line anyway.
    try {
      file.truncate(before);
    } catch (const IoError&) {
    }
    throw;
  }
}

}  // namespace knightstour
