#include "knightstour/run/manifest.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"

namespace knightstour {
namespace {

TEST(Manifest, RoundTripAndDifferences) {
  RunManifest m;
  m.command = Command::enumerate;
  m.rows = 6;
  m.cols = 6;
  m.prefix = {"a1"};
  m.prefix_rules = "pruned-v1";
  m.split_depth = 5;
  m.tour_format = TourFormat::npy;
  m.compression = Compression::zstd;
  m.part_size = 1 << 20;
  m.checkpoint_seconds = 60;
  m.tours = 524486;
  m.created = m.updated = utc_now_iso8601();
  const auto back = RunManifest::from_json(m.to_json(), "test");
  EXPECT_EQ(back.to_json(), m.to_json());
  EXPECT_TRUE(m.differences(back).empty());
  RunManifest other = back;
  other.split_depth = 6;
  other.closed_only = true;
  const auto diff = m.differences(other);
  ASSERT_EQ(diff.size(), 2u);
  EXPECT_EQ(diff[0], "closed false vs true");
  EXPECT_EQ(diff[1], "split depth 5 vs 6");
  other = back;
  other.threads = 64;  // how it ran is not what was asked
  EXPECT_TRUE(m.differences(other).empty());
}

TEST(Manifest, RejectsBrokenFiles) {
  EXPECT_THROW(RunManifest::from_json("{", "m"), FormatError);
  EXPECT_THROW(RunManifest::from_json("{\"format\": \"something else\"}", "m"), FormatError);
  RunManifest m;
  m.command = Command::count;
  m.rows = 9;
  m.cols = 9;  // 81 squares
  m.prefix = {"a1"};
  EXPECT_THROW(RunManifest::from_json(m.to_json(), "m"), FormatError);
}

// Manifest format 1 predates the shard rule: its shards were dealt by prefix id, and a
// resumed, merged or verified format-1 run must keep that rule.
TEST(Manifest, FormatOneShardsAreDealtById) {
  RunManifest m;
  m.command = Command::count;
  m.rows = 6;
  m.cols = 6;
  m.prefix = {"a1"};
  m.split_depth = 5;
  m.shard = {1, 4};
  const auto now = RunManifest::from_json(m.to_json(), "m");
  EXPECT_EQ(now.shard.rule, ShardRule::orbits);
  std::string text = m.to_json();
  const auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("\"format_version\": 2", "\"format_version\": 1");
  replace(",\n    \"rule\": \"orbits\"", "");
  const auto old = RunManifest::from_json(text, "m");
  EXPECT_EQ(old.shard.rule, ShardRule::ids);
  EXPECT_EQ(old.request().shard.rule, ShardRule::ids);
  EXPECT_FALSE(now.differences(old).empty());  // merge refuses to mix the two
  replace("\"format_version\": 1", "\"format_version\": 3");
  EXPECT_THROW(RunManifest::from_json(text, "m"), FormatError);
}

}  // namespace
}  // namespace knightstour
