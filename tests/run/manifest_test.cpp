#include "knightstour/run/manifest.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "support/manifest_edits.hpp"

namespace knightstour {
namespace {

void expect_each_refused(const std::string& good, const test::ManifestEdits& edits) {
  test::expect_each_refused<RunManifest>(good, edits);
}

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
  m.checksums = false;  // written as format 3, without them
  const auto now = RunManifest::from_json(m.to_json(), "m");
  EXPECT_EQ(now.shard.rule, ShardRule::orbits);
  std::string text = m.to_json();
  const auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("\"format_version\": 3", "\"format_version\": 1");
  replace(",\n    \"rule\": \"orbits\"", "");
  const auto old = RunManifest::from_json(text, "m");
  EXPECT_EQ(old.shard.rule, ShardRule::ids);
  EXPECT_EQ(old.request().shard.rule, ShardRule::ids);
  EXPECT_FALSE(now.differences(old).empty());  // merge refuses to mix the two
  replace("\"format_version\": 1", "\"format_version\": 6");
  EXPECT_THROW(RunManifest::from_json(text, "m"), FormatError);
}

// An enumerator run's manifest of 6x6 from a1 at split depth 5 (428 prefixes), nothing done.
RunManifest six_by_six_from_a1() {
  RunManifest m;
  m.rows = 6;
  m.cols = 6;
  m.prefix = {"a1"};
  m.split_depth = 5;
  m.prefixes_in_plan = 428;
  return m;
}

// An enumerator run of format 5 carries a checksum of its counts keyed by its job: an edit of
// a count, even one that keeps every sum, is refused; so is the checksum left out, a format
// that has none given one, and a format of the other method (4 is the frontier's).
TEST(Manifest, EnumeratorCountsCarryAChecksum) {
  RunManifest m = six_by_six_from_a1();
  m.prefixes = 428;
  m.prefixes_done = 428;
  m.tours = 524486;
  m.closed_tours = 19724;
  m.status = RunStatus::complete;
  const std::string good = m.to_json();
  const RunManifest back = RunManifest::from_json(good, "m");
  EXPECT_TRUE(back.checksums);
  EXPECT_EQ(back.tours, m.tours);
  expect_each_refused(good, {{"\"tours\": 524486", "\"tours\": 525486"},
                             {"\"status\": \"complete\"", "\"status\": \"incomplete\""},
                             {"\"split_depth\": 5", "\"split_depth\": 6"},
                             {"\"format_version\": 5", "\"format_version\": 4"},
                             {"\"format_version\": 5", "\"format_version\": 3"},
                             {"\"checksum\": ", "\"no_checksum\": "}});
  RunManifest other_shard = m;
  other_shard.shard = {1, 2};
  EXPECT_NE(dfs_job_key(other_shard), dfs_job_key(m));
}

// Numbers are whole numbers in range, or the manifest is refused: not wrapped (-1 read as
// 18446744073709551615), not truncated (6.7 read as 6), not converted (1e30).
TEST(Manifest, NumbersAreReadStrictly) {
  const std::string good = six_by_six_from_a1().to_json();
  EXPECT_NO_THROW(RunManifest::from_json(good, "m"));
  expect_each_refused(good, {{"\"prefixes_in_plan\": 428", "\"prefixes_in_plan\": -1"},
                             {"\"rows\": 6", "\"rows\": 6.7"},
                             {"\"rows\": 6", "\"rows\": 1e30"},
                             {"\"split_depth\": 5", "\"split_depth\": \"5\""}});
}

}  // namespace
}  // namespace knightstour
