#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/count/run_count.hpp"
#include "knightstour/report/reports.hpp"

namespace knightstour {
namespace {

CountRequest closed_6x6_by_frontier() {
  CountRequest r;
  r.shape = BoardShape{6, 6};
  r.prefix = {0};
  r.closed = true;
  r.method = MethodAsked::frontier;
  return r;
}

// The line of the report whose label is `label`, or "".
std::string line_of(const Report& report, const std::string& label) {
  for (const std::string& line : report.lines) {
    if (line.rfind(label + " ", 0) == 0) return line;
  }
  return "";
}

// A count's text and JSON come from the same figures: the counts, the outcome and the bytes a
// class (computed once, printed to 0.1 in both).
TEST(Report, ACountsTextAndJsonHoldTheSameFigures) {
  const CountResult counted = run_count(closed_6x6_by_frontier());
  ASSERT_TRUE(counted.complete);
  const Report report = report_of(counted);
  EXPECT_EQ(report.outcome, Report::Outcome::complete);
  const auto j = nlohmann::json::parse(report.json);
  EXPECT_EQ(j["tours_directed"], 19724);
  EXPECT_EQ(j["closed_cycles"], 9862);
  EXPECT_NE(line_of(report, "tours").find("19,724 directed tours"), std::string::npos);
  EXPECT_NE(line_of(report, "cycles").find("9,862 closed cycles"), std::string::npos);
  const std::string memory = line_of(report, "memory");
  char at_rest[32];
  std::snprintf(at_rest, sizeof at_rest, "%.1f bytes a class between steps",
                j["bytes_per_class"]["at_rest"].get<double>());
  EXPECT_NE(memory.find(at_rest), std::string::npos) << memory;
  EXPECT_EQ(report.lines.back(), "status     complete");
}

TEST(Report, AStoppedCountIsStoppedAndSaysSo) {
  CountRequest r = closed_6x6_by_frontier();
  r.shape = BoardShape{8, 8};
  r.caps.time_limit = 0.2;
  const Report report = report_of(run_count(r));
  EXPECT_EQ(report.outcome, Report::Outcome::stopped);
  EXPECT_NE(line_of(report, "status").find("INCOMPLETE"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(report.json)["status"], "incomplete");
}

// A count past 64 bits is marked in the JSON for the CLI to write back as a bare integer.
TEST(Report, ACountPast64BitsIsMarkedInTheJson) {
  CountResult r = run_count(closed_6x6_by_frontier());
  r.tours = BigCount::parse("123456789012345678901234567890");
  const auto j = nlohmann::json::parse(report_of(r).json);
  EXPECT_EQ(j["tours_directed"], std::string(kExactCount) + "123456789012345678901234567890");
}

TEST(Report, AFailedVerdictFailsWithoutProvenance) {
  VerifyReport total;
  total.fail("a tour is not a tour");
  const Report report = report_of(Verdict{SummedVerdict{total, 1}});
  EXPECT_EQ(report.outcome, Report::Outcome::failed);
  EXPECT_FALSE(report.stamped);
  EXPECT_EQ(report.lines.front(), "verify: FAILED: a tour is not a tour");
  EXPECT_EQ(nlohmann::json::parse(report.json)["ok"], false);
}

}  // namespace
}  // namespace knightstour
