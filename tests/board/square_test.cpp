#include "knightstour/board/square.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"

namespace knightstour {
namespace {

TEST(SquareNames, ChessStyle) {
  const Board b(6, 6);
  EXPECT_EQ(square_name(b, 0), "a1");
  EXPECT_EQ(square_name(b, 5), "f1");
  EXPECT_EQ(square_name(b, 6), "a2");
  EXPECT_EQ(square_name(b, 35), "f6");
}

TEST(SquareNames, WideBoardsUseTwoLetterFiles) {
  EXPECT_EQ(file_name(25), "z");
  EXPECT_EQ(file_name(26), "aa");
  EXPECT_EQ(file_name(27), "ab");
  EXPECT_EQ(file_name(26 + 26 * 26), "aaa");
  for (int c : {0, 1, 25, 26, 51, 52, 701, 702, 999}) {
    const BoardShape wide{3, 1000};
    const auto rc = parse_row_col(wide, file_name(c) + "2", "square");
    EXPECT_EQ(rc.col, c);
    EXPECT_EQ(rc.row, 1);
  }
}

TEST(SquareParse, NamesAndRowCol) {
  const Board b(5, 5);
  EXPECT_EQ(parse_square(b, "a1"), 0);
  EXPECT_EQ(parse_square(b, "c3"), 12);
  EXPECT_EQ(parse_square(b, "E5"), 24);
  EXPECT_EQ(parse_square(b, "0,0"), 0);
  EXPECT_EQ(parse_square(b, "2,1"), b.index(2, 1));
  EXPECT_EQ(parse_square(b, "4,4"), 24);
}

TEST(SquareParse, RejectsOffBoardAndMalformed) {
  const Board b(5, 5);
  for (const char* bad :
       {"f1", "a9", "a6", "5,0", "0,5", "a0", "1a", "", "a", "3", ",", "a1,", "-1,0", "a-1", "a1b",
        "a 1", "aaaaaaaaaaaaaaaaaaaaaa1", "a99999999999999999999"}) {
    EXPECT_THROW(parse_square(b, bad), UsageError) << bad;
  }
}

TEST(SquareParse, OffBoardMessageNamesTheBoard) {
  const Board b(5, 5);
  try {
    parse_square(b, "f1", "start square");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("off the 5x5 board"), std::string::npos) << e.what();
  }
}

TEST(SquareList, ParsesPaths) {
  const Board b(6, 6);
  EXPECT_EQ(parse_square_list(b, "a1,b3,c5", "prefix"), (std::vector<int>{0, 13, 26}));
  EXPECT_THROW(parse_square_list(b, "a1,,b3", "prefix"), UsageError);
  EXPECT_THROW(parse_square_list(b, "a1,z9", "prefix"), UsageError);
}

}  // namespace
}  // namespace knightstour
