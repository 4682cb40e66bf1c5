#include "knightstour/run/merge.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/verify.hpp"
#include "support/run_helpers.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using test::enumerate_session;
using test::TempDir;

TEST(Merge, ShardsCombineIntoTheWholeRun) {
  TempDir dir;
  std::vector<std::filesystem::path> shards;
  for (int i = 0; i < 3; ++i) {
    shards.push_back(dir / ("shard-" + std::to_string(i)));
    const auto r = enumerate_session(shards.back(), "6x6", "a1", false, {}, {i, 3}, 5);
    EXPECT_TRUE(r.report.complete());
  }
  const auto m = merge_runs(shards, dir / "merged");
  EXPECT_TRUE(m.complete());
  EXPECT_EQ(m.tours, 524'486u);
  EXPECT_EQ(m.closed, 19'724u);
  const auto v = verify_run_directory(dir / "merged");
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.tours, 524'486u);
  EXPECT_EQ(v.run_status, "complete");
  // The merged manifest names every input and its shard (and where it ran).
  const auto merged = read_manifest(dir / "merged");
  ASSERT_EQ(merged.inputs.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(merged.inputs[static_cast<std::size_t>(i)].shard_index, i);
    EXPECT_NE(merged.inputs[static_cast<std::size_t>(i)].dir.find("shard-" + std::to_string(i)),
              std::string::npos);
  }
  // A merge of merged runs lists the original inputs.
  EXPECT_EQ(RunManifest::from_json(merged.to_json(), "m").inputs, merged.inputs);
  // The merged run is an ordinary run: resuming it has nothing left to do.
  const auto again = enumerate_session(dir / "merged", "6x6", "a1", true, {}, {}, 5);
  EXPECT_TRUE(again.report.complete());
  EXPECT_EQ(again.report.searches, 0u);
}

TEST(Merge, ReportsMissingPrefixesAndRefusesDoubles) {
  TempDir dir;
  enumerate_session(dir / "s0", "6x6", "a1", false, {}, {0, 2}, 5);
  enumerate_session(dir / "s1", "6x6", "a1", false, {}, {1, 2}, 5);
  const auto partial = merge_runs({dir / "s0"}, dir / "m0");
  EXPECT_FALSE(partial.complete());
  EXPECT_EQ(partial.missing.front(), 1u);
  EXPECT_EQ(partial.prefixes_done + partial.missing.size(), partial.prefixes);
  EXPECT_THROW(merge_runs({dir / "s0", dir / "s0"}, dir / "m1"), UsageError);
  enumerate_session(dir / "other", "6x6", "a1", false, {}, {1, 2}, 6);
  EXPECT_THROW(merge_runs({dir / "s0", dir / "other"}, dir / "m2"), UsageError);
  EXPECT_FALSE(std::filesystem::exists(dir / "m1"));
}

}  // namespace
}  // namespace knightstour
