#include "knightstour/base/shard.hpp"

#include <gtest/gtest.h>

#include <string>

namespace knightstour {
namespace {

TEST(Shard, ExistsOnlyInsideItsCount) {
  EXPECT_TRUE((Shard{}.exists()));
  EXPECT_TRUE((Shard{2, 3}.exists()));
  EXPECT_FALSE((Shard{3, 3}.exists()));
  EXPECT_FALSE((Shard{-1, 3}.exists()));
  EXPECT_FALSE((Shard{0, 0}.exists()));
  EXPECT_FALSE((Shard{}.sharded()));
  EXPECT_TRUE((Shard{0, 2}.sharded()));
}

TEST(Shard, CheckSaysWhatIsWrongInTheOptionsWords) {
  EXPECT_NO_THROW(check_shard(Shard{1, 2}));
  try {
    check_shard(Shard{5, 3});
    FAIL() << "shard 5 of 3 passed";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "$shard_index 5 must be less than $shard_count 3");
  }
}

}  // namespace
}  // namespace knightstour
