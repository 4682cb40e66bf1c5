// Tour files of every format, plain or zstd: the first byte picks the format, the rest is the
// file. Reading ends in tours of valid square numbers, or a FormatError, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/tour_file_reader.hpp"

using namespace knightstour;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const char* const kNames[] = {"t.npy",     "t.txt",     "t.board",
                                       "t.npy.zst", "t.txt.zst", "t.board.zst"};
  static const std::string dir = [] {
    std::string pattern = "/tmp/knightstour-fuzz-XXXXXX";
    return std::string(::mkdtemp(pattern.data()));
  }();
  const std::string path = dir + "/" + kNames[data[0] % 6];
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  const BoardShape shape{5, 5};
  try {
    TourFileReader reader(path, shape);
    std::vector<std::uint32_t> tour;
    for (int rows = 0; rows < 100000 && reader.next(tour); ++rows) {
      if (tour.size() != 25) std::abort();
      for (auto s : tour) {
        if (s >= 25) std::abort();  // the reader promises squares on the board
      }
    }
  } catch (const FormatError&) {
  } catch (const IoError&) {
  }
  ::unlink(path.c_str());
  return 0;
}
