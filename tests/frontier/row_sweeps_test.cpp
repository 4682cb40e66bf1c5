// A row of every length (FrontierRequest::every_length) against each board counted alone, by
// the frontier method and by the enumerator, and against the OEIS rows.
#include "frontier/jobs/row_sweeps.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "support/count_helpers.hpp"
#include "support/crashing_journal.hpp"

namespace knightstour {
namespace {

FrontierRequest row_request(int rows, int columns, bool closed) {
  FrontierRequest r;
  r.shape = {rows, columns};
  r.closed = closed;
  r.total_only = !closed;
  r.every_length = true;
  return r;
}

FrontierReport count(const FrontierRequest& request, bool fold_mirror = true) {
  StopControl stop({});
  FrontierOptions options;
  options.threads = 2;
  options.fold_mirror = fold_mirror;
  FrontierReport r = count_by_frontier(request, options, stop);
  EXPECT_TRUE(r.complete);
  return r;
}

// The board rows x n alone, over all starts.
FrontierReport alone(int rows, int n, bool closed) {
  FrontierRequest r;
  r.shape = {rows, n};
  r.closed = closed;
  r.total_only = !closed;
  return count(r);
}

// (One append at a time: GCC 12 warns of an overlap, wrongly, in `to_string + "x" + ...`.)
std::string name(int rows, int n) {
  std::string s = std::to_string(rows);
  s += 'x';
  s += std::to_string(n);
  return s;
}

// Every row up to 30 squares, 1 to 8 rows, open and closed: each length as counted alone
// (with the row's odd widths, whose lengths of the two parities balance their colours
// differently, and the rows of 1 and 2, a sweep a length); to 20 squares also as the enumerator
// counts them. The rows of 7 and 8 stop at 5 columns (lengths below the width, counted alone): 8x7
// open alone takes a minute and a half here, and a sweep across 7 or 8 rows of open tours holds
// 10^8 classes by its sixth column.
TEST(RowSweeps, EveryLengthIsTheBoardCountedAlone) {
  for (int rows = 1; rows <= 8; ++rows) {
    const int columns = rows >= 7 ? 5 : 30 / rows;
    for (const bool closed : {true, false}) {
      SCOPED_TRACE(name(rows, columns) + (closed ? " closed" : " open"));
      const FrontierReport row = count(row_request(rows, columns, closed));
      ASSERT_EQ(row.by_length.size(), static_cast<std::size_t>(columns));
      for (int n = 1; n <= columns; ++n) {
        SCOPED_TRACE(name(rows, n));
        const LengthCounts& got = row.by_length[static_cast<std::size_t>(n - 1)];
        EXPECT_EQ(got.length, n);
        const FrontierReport one = alone(rows, n, closed);
        EXPECT_EQ(got.tours, one.tours);
        EXPECT_EQ(got.closed_tours, one.closed_tours);
        EXPECT_EQ(got.cycles, one.cycles);
        if (rows * n > 20) continue;
        test::EngineKnobs knobs;
        knobs.closed = closed;
        const RunReport dfs = test::count(test::make_all_starts_job(name(rows, n), knobs));
        EXPECT_EQ(got.tours, BigCount(dfs.tours));
        EXPECT_EQ(got.closed_tours, BigCount(dfs.closed));
      }
      EXPECT_EQ(row.tours, row.by_length.back().tours);
      EXPECT_EQ(row.cycles, row.by_length.back().cycles);
    }
  }
}

// OEIS A175881 (closed cycles of 6 x n) to 6 x 16, past 64 bits from 6 x 14 on.
TEST(RowSweeps, SixRowsClosedIsA175881) {
  const std::vector<std::string> a175881 = {"0",
                                            "0",
                                            "0",
                                            "0",
                                            "8",
                                            "9862",
                                            "1067638",
                                            "55488142",
                                            "3374967940",
                                            "239187240144",
                                            "15360134570696",
                                            "964730606632516",
                                            "61989683445413228",
                                            "4005716717182224826",
                                            "255967892553030600920",
                                            "16378998506224697063588"};
  const FrontierReport row = count(row_request(6, 16, true));
  ASSERT_EQ(row.by_length.size(), a175881.size());
  for (std::size_t i = 0; i < a175881.size(); ++i) {
    EXPECT_EQ(row.by_length[i].cycles.str(), a175881[i]) << "6x" << i + 1;
  }
}

// OEIS A083386 (undirected open tours of 5 x n; directed, over all starts, twice that) to
// 5 x 12: five rows, the lengths of both parities from one sweep.
TEST(RowSweeps, FiveRowsOpenIsA083386) {
  const std::vector<std::uint64_t> a083386 = {
      0,      0,        0,         82,         864,          18784,
      622868, 18061054, 264895640, 7886117822, 128411926952, 3611823644006};
  const FrontierReport row = count(row_request(5, 12, false));
  ASSERT_EQ(row.by_length.size(), a083386.size());
  for (std::size_t i = 0; i < a083386.size(); ++i) {
    EXPECT_EQ(row.by_length[i].tours, BigCount(2 * a083386[i])) << "5x" << i + 1;
  }
}

// What a row costs beyond its longest board alone, in classes expanded (the same on every
// machine and thread count): the sweep keeps what a length still to come could end, and with
// an odd number of rows what balances the colours as either parity of length does. Measured
// 1.108, 1.212 and 1.052 (6x16 closed 1.059, 5x14 open 1.194: results/frontier/rows.md).
TEST(RowSweeps, ExpandsLittleMoreThanTheLongestBoardAlone) {
  for (const auto& [rows, columns, closed, most] :
       {std::tuple{6, 12, true, 1.15}, std::tuple{5, 12, false, 1.25},
        std::tuple{4, 14, false, 1.10}}) {
    const FrontierReport row = count(row_request(rows, columns, closed));
    const FrontierReport one = alone(rows, columns, closed);
    ASSERT_EQ(row.tours, one.tours);
    const double ratio = static_cast<double>(row.expanded) / static_cast<double>(one.expanded);
    EXPECT_LE(ratio, most) << name(rows, columns) << (closed ? " closed" : " open");
    EXPECT_GE(ratio, 1.0) << name(rows, columns);
  }
}

// Folding the mirror (kept on for speed) changes no length's count.
TEST(RowSweeps, TheMirrorFoldChangesNoLength) {
  for (const bool closed : {true, false}) {
    const FrontierReport folded = count(row_request(6, 7, closed), true);
    const FrontierReport whole = count(row_request(6, 7, closed), false);
    ASSERT_EQ(folded.by_length.size(), whole.by_length.size());
    for (std::size_t i = 0; i < folded.by_length.size(); ++i) {
      EXPECT_EQ(folded.by_length[i].tours, whole.by_length[i].tours) << "6x" << i + 1;
      EXPECT_EQ(folded.by_length[i].cycles, whole.by_length[i].cycles) << "6x" << i + 1;
    }
  }
}

// A sweep for each length below the rows (closed: those with tours), then one across the
// rows for a closed row or an even number of rows, two for an open row of an odd number.
TEST(RowSweeps, SweepsPlanned) {
  EXPECT_EQ(frontier_detail::row_sweeps_planned(row_request(6, 16, true)), 5 + 1);
  EXPECT_EQ(frontier_detail::row_sweeps_planned(row_request(6, 16, false)), 6 + 5 + 1);
  EXPECT_EQ(frontier_detail::row_sweeps_planned(row_request(5, 14, true)), 2 + 1);
  EXPECT_EQ(frontier_detail::row_sweeps_planned(row_request(5, 14, false)), 3 + 4 + 2 - 1);
  EXPECT_EQ(frontier_detail::row_sweeps_planned(row_request(8, 5, false)), 5 + 5);
  const FrontierReport r = count(row_request(5, 9, false));
  EXPECT_EQ(r.sweeps, 3 + 5);  // closed: 5x2, 5x4, across; open: 5x1 to 5x4, across
}

// A journal keeps a row by its lengths: stopped after every few checkpoints (a few steps) and
// resumed each time, from the checkpoints of the sweeps across the rows and the lengths
// they finished on their way, the row ends as counted at one go; the journal finishes every
// length (units 0 to N - 1, open rows N to 2N - 1 too) and no sweep across the rows.
TEST(RowSweeps, ResumesFromAnyCheckpoint) {
  for (const auto& [rows, columns, closed] :
       {std::tuple{6, 10, true}, std::tuple{5, 9, false}, std::tuple{4, 9, false}}) {
    const FrontierRequest request = row_request(rows, columns, closed);
    const FrontierReport whole = count(request);
    for (const int every : {1, 7}) {
      int runs = 0;
      const FrontierReport r = test::resumed_until_complete(request, every, runs);
      ASSERT_TRUE(r.complete) << name(rows, columns) << " every " << every;
      EXPECT_GT(runs, 3) << name(rows, columns);
      ASSERT_EQ(r.by_length.size(), whole.by_length.size());
      for (std::size_t i = 0; i < r.by_length.size(); ++i) {
        EXPECT_EQ(r.by_length[i].tours, whole.by_length[i].tours)
            << name(rows, static_cast<int>(i) + 1) << " every " << every;
        EXPECT_EQ(r.by_length[i].cycles, whole.by_length[i].cycles)
            << name(rows, static_cast<int>(i) + 1) << " every " << every;
      }
    }
  }
}

// The units a journal keeps: a length each, closed then open; the sweeps across the rows
// checkpoint past them and finish no unit of their own.
TEST(RowSweeps, JournalsEveryLengthAsAUnit) {
  const FrontierRequest request = row_request(5, 9, false);
  EXPECT_EQ(planned_sweeps(request), 18);
  EXPECT_EQ(row_sweeps_across(request), 1 + 1);  // closed: to the even longest; open: to 9
  test::CrashingJournal journal;
  journal.saves_steps = false;
  StopControl stop({});
  FrontierOptions options;
  options.threads = 2;
  const FrontierReport r = count_by_frontier(request, options, stop, &journal);
  ASSERT_TRUE(r.complete);
  for (int unit = 0; unit < 18; ++unit) {
    const auto count = journal.finished(unit);
    ASSERT_TRUE(count.has_value()) << "unit " << unit;
    const LengthCounts& length = r.by_length[static_cast<std::size_t>(unit % 9)];
    EXPECT_EQ(*count, unit < 9 ? length.cycles : length.tours / 2) << "unit " << unit;
  }
  for (int across = 18; across < 20; ++across) EXPECT_FALSE(journal.finished(across));
  EXPECT_EQ(journal.drops, 2);
  // All finished: a second run counts nothing again and gives the same row.
  const FrontierReport again = count_by_frontier(request, options, stop, &journal);
  ASSERT_TRUE(again.complete);
  EXPECT_EQ(again.sweeps_resumed, again.sweeps);
  EXPECT_EQ(again.expanded, 0U);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(again.by_length[i].tours, r.by_length[i].tours);
}

TEST(RowSweeps, RefusesWhatItCannotCount) {
  StopControl stop({});
  const FrontierOptions options;
  FrontierRequest from_a1 = row_request(6, 8, true);
  from_a1.start = 0;
  EXPECT_THROW(count_by_frontier(from_a1, options, stop), UsageError);
  FrontierRequest with_grid = row_request(6, 8, false);
  with_grid.total_only = false;
  EXPECT_THROW(count_by_frontier(with_grid, options, stop), UsageError);
  EXPECT_THROW(count_by_frontier(row_request(10, 8, true), options, stop), UsageError);
}

}  // namespace
}  // namespace knightstour
