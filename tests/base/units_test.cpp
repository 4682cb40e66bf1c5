#include "knightstour/base/units.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"

namespace knightstour {
namespace {

TEST(Hex64, SixteenDigitsZeroPadded) {
  EXPECT_EQ(hex64(0), "0000000000000000");
  EXPECT_EQ(hex64(0xabcdefull), "0000000000abcdef");
  EXPECT_EQ(hex64(~0ull), "ffffffffffffffff");
}

TEST(SizeText, UsesTheLargestUnitThatKeepsTheValueAtLeastOne) {
  EXPECT_EQ(size_text(0), "0 bytes");
  EXPECT_EQ(size_text(1), "1 byte");
  EXPECT_EQ(size_text(1023), "1023 bytes");
  EXPECT_EQ(size_text(1024), "1.00 KiB");
  EXPECT_EQ(size_text(1536), "1.50 KiB");
  EXPECT_EQ(size_text(std::uint64_t{8} << 20), "8.00 MiB");
  EXPECT_EQ(size_text((std::uint64_t{1} << 30) - 1), "1024.00 MiB");  // rounded, not promoted
  EXPECT_EQ(size_text(std::uint64_t{12348151808}), "11.50 GiB");
  EXPECT_EQ(size_text(std::uint64_t{1} << 50), "1024.00 TiB");  // no unit past TiB
}

TEST(SizeText, ReadsBackWhatParseSizeTook) {
  EXPECT_EQ(size_text(parse_size("memory", "1K")), "1.00 KiB");
  EXPECT_EQ(size_text(parse_size("memory", "500M")), "500.00 MiB");
  EXPECT_EQ(size_text(parse_size("memory", "16g")), "16.00 GiB");
  EXPECT_EQ(size_text(parse_size("memory", "3T")), "3.00 TiB");
}

TEST(ParseSize, RefusesWhatIsNotASize) {
  EXPECT_THROW(parse_size("memory", "5Q"), UsageError);
  EXPECT_THROW(parse_size("memory", "0"), UsageError);
  EXPECT_THROW(parse_size("memory", "-1G"), UsageError);
  EXPECT_THROW(parse_size("memory", ""), UsageError);
}

}  // namespace
}  // namespace knightstour
