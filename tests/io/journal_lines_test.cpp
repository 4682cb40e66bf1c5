#include "knightstour/io/journal_lines.hpp"

#include <gtest/gtest.h>

#include <string>

#include "knightstour/base/checksum.hpp"

namespace knightstour {
namespace {

TEST(JournalLines, WholeLinesLeaveOutATornTail) {
  const JournalLines none = whole_lines("");
  EXPECT_TRUE(none.lines.empty());
  EXPECT_EQ(none.valid_bytes, 0u);
  EXPECT_FALSE(none.torn_tail);

  const JournalLines torn_only = whole_lines("half a li");
  EXPECT_TRUE(torn_only.lines.empty());
  EXPECT_EQ(torn_only.valid_bytes, 0u);
  EXPECT_TRUE(torn_only.torn_tail);

  const std::string text = "# header\n\na\tb\nhalf";
  const JournalLines j = whole_lines(text);
  ASSERT_EQ(j.lines.size(), 3u);
  EXPECT_EQ(j.lines[0].number, 1u);
  EXPECT_EQ(j.lines[0].text, "# header");
  EXPECT_EQ(j.lines[1].text, "");
  EXPECT_EQ(j.lines[2].number, 3u);
  EXPECT_EQ(j.lines[2].text, "a\tb");
  EXPECT_EQ(j.valid_bytes, text.size() - 4);
  EXPECT_TRUE(j.torn_tail);
  EXPECT_FALSE(whole_lines("a\n").torn_tail);
}

TEST(JournalLines, TabFieldsKeepEmptyFields) {
  EXPECT_EQ(tab_fields(""), (std::vector<std::string_view>{""}));
  EXPECT_EQ(tab_fields("a\t\tb\t"), (std::vector<std::string_view>{"a", "", "b", ""}));
}

TEST(JournalLines, ABodyChecksOutOnlyUnderItsKey) {
  const std::string body = "finished\t3\t42";
  const std::string line = body + '\t' + keyed_checksum("job", body);
  ASSERT_TRUE(checked_body(line, "job").has_value());
  EXPECT_EQ(*checked_body(line, "job"), body);
  EXPECT_FALSE(checked_body(line, "another job"));
  EXPECT_FALSE(checked_body("finished\t3\t43\t" + keyed_checksum("job", body), "job"));
  EXPECT_FALSE(checked_body("no tab at all", "job"));
  EXPECT_FALSE(checked_body(body + '\t' + keyed_checksum("job", body) + "0", "job"));
}

}  // namespace
}  // namespace knightstour
