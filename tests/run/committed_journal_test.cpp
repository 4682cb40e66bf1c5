#include "knightstour/run/committed_journal.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/npy.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using test::TempDir;

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A file numpy re-saved with a wider item type is sized by its own header, not by the type
// this program would write for the board.
TEST(CountToursInFile, SizesAnNpyFileByItsHeader) {
  TempDir dir;
  const BoardShape shape{5, 5};
  const auto path = dir.path() / "tours-0-0.npy";
  std::string body;
  for (int row = 0; row < 3; ++row) {
    for (int i = 0; i < 25; ++i) {
      body += static_cast<char>(i);
      body += '\0';
    }
  }
  write_bytes(path, npy_header({3, 25, 2}) + body);
  EXPECT_EQ(count_tours_in_file(path, shape), 3u);

  // The same header over one-byte rows: the size disagrees with the header.
  write_bytes(path, npy_header({3, 25, 2}) + std::string(75, '\0'));
  EXPECT_THROW(count_tours_in_file(path, shape), FormatError);

  // A header claiming more rows than the file holds.
  write_bytes(path, npy_header({4, 25, 2}) + body);
  EXPECT_THROW(count_tours_in_file(path, shape), FormatError);
}

}  // namespace
}  // namespace knightstour
