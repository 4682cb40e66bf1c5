#include "knightstour/frontier_run/frontier_manifest.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "support/manifest_edits.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

void expect_each_refused(const std::string& good, const test::ManifestEdits& edits) {
  test::expect_each_refused<FrontierManifest>(good, edits);
}

FrontierManifest frontier_manifest() {
  FrontierManifest m;
  m.rows = 6;
  m.cols = 12;  // past 64 squares: a frontier manifest may be
  m.prefix = {"a1"};
  m.closed_only = true;
  m.frontier.sweeps_planned = 1;
  m.frontier.finished = {{0, "964730606632516"}};
  m.status = RunStatus::complete;
  m.frontier.tours = "1929461213265032";
  m.frontier.closed_tours = "1929461213265032";
  m.frontier.closed_cycles = "964730606632516";
  return m;
}

TEST(FrontierManifest, FrontierRunsRoundTrip) {
  const FrontierManifest m = frontier_manifest();
  const FrontierManifest back = FrontierManifest::from_json(m.to_json(), "m");
  EXPECT_EQ(back.method, Method::frontier);
  EXPECT_EQ(back.frontier, m.frontier);
  EXPECT_EQ(back.rows, 6);
  EXPECT_EQ(back.cols, 12);
  EXPECT_EQ(back.prefix, m.prefix);
  EXPECT_FALSE(back.differences(RunManifest{}).empty());
}

// A rank's share names its rank, the number of ranks and the run's id, under the checksum;
// a manifest of one process written before owners were recorded reads as rank 0 of 1.
TEST(FrontierManifest, FrontierOwnerRoundTripsUnderTheChecksum) {
  FrontierManifest m = frontier_manifest();
  EXPECT_EQ(FrontierManifest::from_json(m.to_json(), "m").frontier.ranks, 1);
  EXPECT_EQ(m.to_json().find("owner"), std::string::npos);
  m.frontier.rank = 1;
  m.frontier.ranks = 3;
  m.frontier.run_id = "0123456789abcdef";
  const std::string good = m.to_json();
  const FrontierManifest back = FrontierManifest::from_json(good, "m");
  EXPECT_EQ(back.frontier, m.frontier);
  expect_each_refused(good, {{"\"rank\": 1", "\"rank\": 0"},
                             {"\"ranks\": 3", "\"ranks\": 1"},
                             {"0123456789abcdef", "0123456789abcdee"},
                             {"\"rank\": 1", "\"rank\": 3"}});
}

// Whatever a count could be taken from is under the checksum: a hand edit is refused.
TEST(FrontierManifest, FrontierEditsAreRefused) {
  const std::string good = frontier_manifest().to_json();
  expect_each_refused(good, {{"\"a1\"", "\"b1\""},
                             {"\"rows\": 6", "\"rows\": 7"},
                             {"\"closed_only\": true", "\"closed_only\": false"},
                             {"\"964730606632516\"", "\"964730606632517\""},
                             {"\"status\": \"complete\"", "\"status\": \"incomplete\""},
                             {"\"sweeps_planned\": 1", "\"sweeps_planned\": 2"}});
  // A sweep listed twice is refused whatever the checksum says.
  FrontierManifest twice = frontier_manifest();
  std::string text = twice.to_json();
  const std::string entry =
      "{\n        \"count\": \"964730606632516\",\n        \"sweep\": 0\n      }";
  const auto at = text.find(entry);
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at + entry.size(), ",\n" + entry);
  EXPECT_THROW(FrontierManifest::from_json(text, "m"), FormatError);
}

// The run layer reads a frontier manifest's common fields and leaves its section (and its
// checksum) to this layer; it writes no frontier manifest, which would lose the section.
TEST(FrontierManifest, TheRunLayerReadsItsCommonFieldsOnly) {
  const FrontierManifest m = frontier_manifest();
  const RunManifest common = RunManifest::from_json(m.to_json(), "m");
  EXPECT_EQ(common.method, Method::frontier);
  EXPECT_EQ(common.board_name(), "6x12");
  EXPECT_EQ(common.status, RunStatus::complete);
  test::TempDir tmp;
  EXPECT_THROW(write_manifest(tmp.path(), common), std::logic_error);
  write_manifest(tmp.path(), m);
  EXPECT_EQ(read_frontier_manifest(tmp.path()).frontier, m.frontier);
  EXPECT_TRUE(holds_frontier_run(tmp.path()));
}

// A manifest of the enumerator, or of a version the frontier method never wrote, is refused.
TEST(FrontierManifest, OtherMethodsAndVersionsAreRefused) {
  const std::string good = frontier_manifest().to_json();
  expect_each_refused(good, {{"\"method\": \"frontier\"", "\"method\": \"dfs\""},
                             {"\"format_version\": 4", "\"format_version\": 5"},
                             {"\"format_version\": 4", "\"format_version\": 2"}});
  try {
    std::string text = good;
    text.replace(text.find("\"format_version\": 4"), 19, "\"format_version\": 2");
    FrontierManifest::from_json(text, "m");
    FAIL() << "format 2 read";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(),
                 "m is not a valid manifest: format_version 2 of the frontier method, which no "
                 "knightstour writes");
  }
}

// A residue unit's manifest says format 5 and its modulus, under the checksum and in the job
// key; format 5 is a residue unit's only, and its modulus a prime.
TEST(FrontierManifest, ResidueUnitsSayFormat5AndTheirModulus) {
  FrontierManifest m = frontier_manifest();
  const std::string exact_key = frontier_job_key(m);
  m.frontier.modulus = 4611686018427387847ull;
  const std::string good = m.to_json();
  EXPECT_NE(good.find("\"format_version\": 5"), std::string::npos);
  EXPECT_NE(good.find("\"modulus\": 4611686018427387847"), std::string::npos);
  EXPECT_EQ(FrontierManifest::from_json(good, "m").frontier, m.frontier);
  EXPECT_EQ(frontier_job_key(m), exact_key + "|modulo 4611686018427387847");
  expect_each_refused(good,
                      {{"\"modulus\": 4611686018427387847", "\"modulus\": 4611686018427387817"},
                       {"\"modulus\": 4611686018427387847", "\"modulus\": 4611686018427387849"},
                       {"\"format_version\": 5", "\"format_version\": 4"}});
  try {
    std::string text = frontier_manifest().to_json();
    text.replace(text.find("\"format_version\": 4"), 19, "\"format_version\": 5");
    FrontierManifest::from_json(text, "m");
    FAIL() << "format 5 without a modulus read";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "m is not a valid manifest: format_version 5 without a modulus");
  }
}

// Every frontier run committed under results/runs reads, and writes back byte for byte: the
// manifest's format is the same whichever layer writes which part. (They are of format 3,
// before the sweep journal; written again, a manifest says 4, as it always has.)
TEST(FrontierManifest, CommittedRunsWriteBackByteForByte) {
  namespace fs = std::filesystem;
  const fs::path runs = fs::path(KNIGHTSTOUR_RESULTS) / "runs";
  int read = 0;
  for (const auto& entry : fs::recursive_directory_iterator(runs)) {
    if (entry.path().filename() != "manifest.json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    if (RunManifest::from_json(text.str(), "m").method != Method::frontier) continue;
    std::string expected = text.str();
    const auto version = expected.find("\"format_version\": 3,");
    if (version != std::string::npos) expected[version + 18] = '4';
    EXPECT_EQ(FrontierManifest::from_json(text.str(), "m").to_json(), expected) << entry.path();
    ++read;
  }
  EXPECT_GE(read, 137);
}

}  // namespace
}  // namespace knightstour
