// Journal files of both kinds: complete lines parse into records whose sums hold, a torn last
// line is reported, anything else is a FormatError naming the line.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/run/journal.hpp"

using namespace knightstour;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const std::string path = [] {
    std::string pattern = "/tmp/knightstour-fuzz-XXXXXX";
    return std::string(::mkdtemp(pattern.data())) + "/journal-0.tsv";
  }();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  const auto kind = data[0] % 2 ? JournalKind::count : JournalKind::enumerate;
  // Bit 1: a journal v3 (lines checksummed by a job key) rather than v1/v2.
  const JournalFormat format{kind, 4, (data[0] & 2) ? "fuzz-key" : ""};
  try {
    const auto contents = read_journal(path, format);
    for (const auto& r : contents.records) {
      if (r.closed > r.tours) std::abort();
      if (kind == JournalKind::count) {
        std::uint64_t sum = 0;
        for (auto v : r.by_end) sum += v;
        if (r.by_end.size() != 4 || sum != r.tours) std::abort();
      } else if (r.file.empty()) {
        std::abort();
      }
    }
  } catch (const FormatError&) {
  }
  return 0;
}
