#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zstd.h>

#include <filesystem>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/npy.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_file_reader.hpp"
#include "knightstour/io/tour_file_writer.hpp"
#include "support/count_helpers.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using test::TempDir;

TEST(Npy, HeaderRoundTripAndFixedSize) {
  for (int item : {1, 2, 4}) {
    const NpyShape shape{123456789012ull, 36, item};
    const auto header = npy_header(shape);
    EXPECT_EQ(header.size(), kNpyHeaderSize);
    EXPECT_EQ(header.back(), '\n');
    std::size_t size = 0;
    const auto parsed = parse_npy_header(header, size);
    EXPECT_EQ(size, kNpyHeaderSize);
    EXPECT_EQ(parsed.rows, shape.rows);
    EXPECT_EQ(parsed.cols, 36u);
    EXPECT_EQ(parsed.item_size, item);
  }
  EXPECT_EQ(npy_item_size(64), 1);
  EXPECT_EQ(npy_item_size(256), 1);
  EXPECT_EQ(npy_item_size(257), 2);
  EXPECT_EQ(npy_item_size(1'000'000), 4);
}

TEST(Npy, RejectsForeignHeaders) {
  std::size_t size = 0;
  EXPECT_THROW(parse_npy_header("not numpy at all", size), FormatError);
  auto header = npy_header({1, 36, 1});
  header.replace(header.find("|u1"), 3, "<f8");
  EXPECT_THROW(parse_npy_header(header, size), FormatError);
}

// A header dictionary of `dict`, version 1.0, as numpy would frame it.
std::string framed(const std::string& dict) {
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

TEST(Npy, ReadsWhatNumpyWritesInAnyKeyOrder) {
  std::size_t size = 0;
  // np.save of a (3, 36) uint16 array (numpy 1.x and 2.x write this dictionary).
  auto s = parse_npy_header(framed("{'descr': '<u2', 'fortran_order': False, 'shape': (3, 36), }" +
                                   std::string(53, ' ') + "\n"),
                            size);
  EXPECT_EQ(s.rows, 3u);
  EXPECT_EQ(s.cols, 36u);
  EXPECT_EQ(s.item_size, 2);
  s = parse_npy_header(
      framed("{\"shape\": (0,25), \"descr\": \"|u1\", \"fortran_order\": False}\n"), size);
  EXPECT_EQ(s.rows, 0u);
  EXPECT_EQ(s.cols, 25u);
}

// Each of these is read differently by numpy, or refused by it: the parser must refuse them.
TEST(Npy, RefusesWhatNumpyReadsDifferentlyOrRefuses) {
  const std::vector<std::string> bad = {
      // a repeated key: numpy keeps the last one
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36), 'shape': (4, 36), }\n",
      "{'descr': '|u1', 'fortran_order': False, 'shape': (03, 36), }\n",  // Python 3 refuses
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36), 'extra': 1, }\n",
      "{'descr': '|u1', 'fortran_order': False, }\n",                      // no shape
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36), } x\n",  // text after
      "{'descr': '|u1' 'fortran_order': False, 'shape': (3, 36), }\n",     // no comma
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36,,), }\n",
      "{'descr': '|u1', 'fortran_order': Falsey, 'shape': (3, 36), }\n",
      "{'descr': '|u1', 'fortran_order': True, 'shape': (3, 36), }\n",
      std::string("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36), }\n\0", 62),
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36) # comment\n}\n",
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36, 1), }\n",
      "{'descr': '|u1', 'fortran_order': False, 'shape': (99999999999999999999, 36), }\n",
      "{'descr': '>u2', 'fortran_order': False, 'shape': (3, 36), }\n",
      "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 36), \n",  // unterminated
  };
  for (const auto& dict : bad) {
    std::size_t size = 0;
    EXPECT_THROW(parse_npy_header(framed(dict), size), FormatError) << dict;
  }
}

// Found by fuzz_tour_file: an .npy row with a square number past the board was returned to
// callers that index arrays with it (show wrote out of bounds).
TEST(TourFileReader, RefusesNpySquaresOffTheBoard) {
  TempDir dir;
  const auto path = dir / "tours-0-0.npy";
  std::string body;
  for (int i = 0; i < 25; ++i) body += static_cast<char>(i == 20 ? 32 : i);
  {
    PosixFile f(path, O_WRONLY | O_CREAT | O_TRUNC);
    const auto bytes = npy_header({1, 25, 1}) + body;
    f.write_all(bytes.data(), bytes.size());
  }
  TourFileReader reader(path, {5, 5});
  std::vector<std::uint32_t> tour;
  try {
    reader.next(tour);
    FAIL() << "an off-board square was read";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("square number 32 is off the 5x5 board"),
              std::string::npos)
        << e.what();
  }
}

TEST(Npy, RawZstdFrameDecodesToThePayload) {
  const std::string payload = npy_header({42, 25, 1});
  const auto frame = zstd_raw_frame(payload);
  EXPECT_EQ(frame.size(), payload.size() + 9);
  std::string out(payload.size(), '\0');
  const auto n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  ASSERT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  EXPECT_EQ(out, payload);
}

std::vector<std::vector<std::uint8_t>> some_tours() {
  const Board b(5, 5);
  return test::kernel_tours(b, {0}, false);
}

std::vector<std::vector<std::uint32_t>> read_all(const std::filesystem::path& p, BoardShape shape) {
  TourFileReader reader(p, shape);
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<std::uint32_t> t;
  while (reader.next(t)) out.push_back(t);
  return out;
}

class WriterFormats : public ::testing::TestWithParam<std::tuple<TourFormat, Compression>> {};

TEST_P(WriterFormats, WritesReadsAndRollsBack) {
  const auto [format, compression] = GetParam();
  TempDir dir;
  const BoardShape shape{5, 5};
  const auto tours = some_tours();
  ASSERT_EQ(tours.size(), 304u);
  const auto path = dir / ("tours-0-0" + file_extension(format, compression));
  {
    TourFileWriter w(path, shape, format, compression);
    for (std::size_t i = 0; i < 200; ++i) w.add(tours[i].data());
    w.checkpoint();
    for (std::size_t i = 200; i < 250; ++i) w.add(tours[i].data());
    w.rollback();  // these 50 never happened
    EXPECT_EQ(w.tours(), 200u);
    for (std::size_t i = 200; i < 304; ++i) w.add(tours[i].data());
    EXPECT_FALSE(std::filesystem::exists(path));  // invisible until finished
    w.finish();
  }
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  const auto back = read_all(path, shape);
  ASSERT_EQ(back.size(), 304u);
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_TRUE(std::equal(back[i].begin(), back[i].end(), tours[i].begin())) << i;
  }
  EXPECT_EQ(infer_board_shape(path).value_or(BoardShape{5, 5}), shape);
}

INSTANTIATE_TEST_SUITE_P(
    AllFormats, WriterFormats,
    ::testing::Combine(::testing::Values(TourFormat::npy, TourFormat::text, TourFormat::board),
                       ::testing::Values(Compression::none, Compression::zstd)));

TEST(TourFileWriter, AbandonLeavesNothing) {
  TempDir dir;
  const auto path = dir / "tours-0-0.npy";
  {
    TourFileWriter w(path, {5, 5}, TourFormat::npy, Compression::none);
    w.add(some_tours()[0].data());
  }  // destroyed unfinished
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(TourFileWriter, WideBoardsUseWiderTypes) {
  TempDir dir;
  const BoardShape shape{20, 20};  // 400 squares: two bytes per square
  std::vector<std::uint32_t> tour(400);
  for (std::uint32_t i = 0; i < 400; ++i) tour[i] = 399 - i;
  const auto path = dir / "wide.npy";
  TourFileWriter w(path, shape, TourFormat::npy, Compression::none);
  w.add(tour.data());
  w.finish();
  EXPECT_EQ(std::filesystem::file_size(path), kNpyHeaderSize + 800);
  const auto back = read_all(path, shape);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0], tour);
}

TEST(TourFileReader, TruncationIsAFormatError) {
  TempDir dir;
  const auto tours = some_tours();
  for (auto compression : {Compression::none, Compression::zstd}) {
    const auto path = dir / ("t" + file_extension(TourFormat::npy, compression));
    {
      TourFileWriter w(path, {5, 5}, TourFormat::npy, compression);
      for (const auto& t : tours) w.add(t.data());
      w.finish();
    }
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 7);
    EXPECT_THROW(read_all(path, {5, 5}), FormatError);
  }
}

TEST(TourFileReader, WrongBoardIsAFormatError) {
  TempDir dir;
  const auto path = dir / "t.npy";
  {
    TourFileWriter w(path, {5, 5}, TourFormat::npy, Compression::none);
    w.add(some_tours()[0].data());
    w.finish();
  }
  EXPECT_THROW(TourFileReader(path, BoardShape{6, 6}), FormatError);
  EXPECT_THROW(tour_file_type(dir / "t.csv"), FormatError);
}

TEST(PosixFile, ErrorsNameTheFileAndReason) {
  try {
    PosixFile f("/proc/definitely/not/here", O_WRONLY | O_CREAT);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/definitely/not/here"), std::string::npos);
  }
}

}  // namespace
// `find --out /dev/null` as root once renamed its .tmp over /dev/null, leaving a regular
// file there. A device, pipe or directory in the way is refused before anything is written.
TEST(TourFileWriter, RefusesToReplaceWhatIsNoRegularFile) {
  TempDir dir;
  const auto pipe = dir / "pipe";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  EXPECT_THROW(TourFileWriter(pipe, {5, 5}, TourFormat::text, Compression::none), UsageError);
  EXPECT_THROW(write_file_atomically(pipe, "x"), UsageError);
  EXPECT_THROW(write_file_atomically(dir.path(), "x"), UsageError);
  struct stat st {};
  ASSERT_EQ(::stat(pipe.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_FALSE(std::filesystem::exists(dir / "pipe.tmp"));
  // A regular file is still replaced whole.
  write_file_atomically(dir / "plain", "old");
  write_file_atomically(dir / "plain", "new");
  EXPECT_EQ(read_small_file(dir / "plain"), "new");
}

}  // namespace knightstour
