// The bound on a count's bits against counts known (DESIGN.md, OEIS), and the rows it refuses
// before they start.
#include "frontier/jobs/count_bound.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {
namespace {

using frontier_detail::count_bits_bound;

// log2 of a decimal count, from its digits (counts past 64 bits included).
double bits_of(const std::string& decimal) {
  const std::size_t head = std::min<std::size_t>(decimal.size(), 15);
  return std::log2(std::stod(decimal.substr(0, head))) +
         static_cast<double>(decimal.size() - head) * std::log2(10.0);
}

// Directed tours over all starts, as count prints them, are within the bound; so is a
// count past 64 bits, and the bound is not so loose that it says nothing (within 2.5 times
// the bits of the counts of 60 squares and more here; 1.8 times on 8x8 and 6x16).
TEST(CountBound, HoldsEveryKnownCount) {
  struct Known {
    BoardShape shape;
    bool paths;
    std::string tours;
  };
  const Known known[] = {
      {{5, 5}, true, "1728"},
      {{6, 6}, false, "710064"},                      // 9,862 cycles x 72
      {{8, 8}, false, "1698222644548096"},            // 13,267,364,410,532 x 128 (A001230)
      {{6, 16}, false, "3144767713195141836208896"},  // A175881(16) x 192
      {{5, 12}, true, "7223647288012"},               // A083386(12) x 2
      {{6, 6}, true, "6637920"},                      // count 6x6 --all-starts --total-only
  };
  for (const Known& k : known) {
    const double bound = count_bits_bound(k.shape, k.paths);
    const double bits = bits_of(k.tours);
    EXPECT_GE(bound, bits) << k.shape.rows << "x" << k.shape.cols;
    if (k.shape.squares() >= 60) {  // a small board's bound is dominated by its margins
      EXPECT_LE(bound, 2.5 * bits) << k.shape.rows << "x" << k.shape.cols;
    }
  }
}

// A row whose sweep could pass the widest count is refused before it starts, with the
// bound; the rows the field counts (8x32 closed, 7x40 open) are not.
TEST(CountBound, RefusesARowPastTheWidestCount) {
  FrontierRequest row;
  row.shape = {8, 32};
  row.closed = true;
  row.every_length = true;
  EXPECT_NO_THROW(validate(row));
  row.shape = {8, 90};
  try {
    validate(row);
    FAIL() << "8x90 closed, every length, was not refused";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("may need up to "), std::string::npos) << what;
    EXPECT_NE(what.find("8x94"), std::string::npos) << what;
    EXPECT_NE(what.find("past the 1024 bits"), std::string::npos) << what;
  }
  row.shape = {7, 40};
  row.closed = false;
  row.total_only = true;
  EXPECT_NO_THROW(validate(row));
  row.shape = {3, 300};
  EXPECT_THROW(validate(row), UsageError);
  EXPECT_GT(count_bits_bound({3, 304}, true), 64.0 * kMaxLimbs);
}

}  // namespace
}  // namespace knightstour
