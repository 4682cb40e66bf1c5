// The checksums of manifests and journal lines against tests/data/checksum_vectors.json, which
// python/tests/test_checksums.py reads too: the binary and the Python package compute them
// alike, from one set of values rather than each from its own reading of the other.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/frontier_manifest.hpp"
#include "knightstour/run/manifest.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using test::TempDir;

nlohmann::json vectors() {
  std::ifstream in(KNIGHTSTOUR_TEST_DATA "/checksum_vectors.json");
  return nlohmann::json::parse(in);
}

void write_manifest_json(const std::filesystem::path& dir, const nlohmann::json& manifest) {
  std::ofstream(dir / "manifest.json") << manifest.dump(2);
}

TEST(ChecksumVectors, Fnv1aGivesThePublishedValues) {
  const auto v = vectors();
  ASSERT_EQ(v["fnv1a"].size(), 3u);
  for (const auto& t : v["fnv1a"]) EXPECT_EQ(fnv1a_hex(t["text"]), t["hex"]) << t["text"];
}

TEST(ChecksumVectors, JournalLinesCheckOutByTheirKey) {
  const auto v = vectors();
  ASSERT_FALSE(v["journal_lines"].empty());
  for (const auto& t : v["journal_lines"]) {
    const std::string line = t["line"];
    const auto tab = line.rfind('\t');
    ASSERT_NE(tab, std::string::npos);
    EXPECT_EQ(keyed_checksum(t["key"], line.substr(0, tab)), line.substr(tab + 1));
    EXPECT_NE(keyed_checksum(std::string(t["key"]) + " ", line.substr(0, tab)),
              line.substr(tab + 1));
  }
}

// Each manifest reads (its checksum checks out), its job key is the one recorded, and the
// same manifest with its count edited is refused.
TEST(ChecksumVectors, ManifestsCheckOutAndAreKeyedByTheirJob) {
  const auto v = vectors();
  ASSERT_EQ(v["manifests"].size(), 3u);
  for (const auto& t : v["manifests"]) {
    const bool dfs = t["method"] == "dfs";
    TempDir dir;
    write_manifest_json(dir.path(), t["manifest"]);
    // Each method's reader: the run layer's checks no frontier section.
    const std::string key = dfs ? dfs_job_key(read_manifest(dir.path()))
                                : frontier_job_key(read_frontier_manifest(dir.path()));
    EXPECT_EQ(key, t["job_key"]);

    nlohmann::json edited = t["manifest"];
    if (dfs) {
      edited["totals"]["tours"] = edited["totals"]["tours"].get<std::uint64_t>() + 2;
    } else {
      edited["frontier"]["counts"]["tours"] = "1";
    }
    write_manifest_json(dir.path(), edited);
    if (dfs) {
      EXPECT_THROW(read_manifest(dir.path()), FormatError) << t["job_key"];
    } else {
      EXPECT_THROW(read_frontier_manifest(dir.path()), FormatError) << t["job_key"];
    }
  }
}

}  // namespace
}  // namespace knightstour
