#include "knightstour/count/method_choice.hpp"

#include <gtest/gtest.h>

#include "knightstour/base/errors.hpp"

namespace knightstour {
namespace {

CountRequest job(int rows, int cols, bool closed, bool all_starts) {
  CountRequest r;
  r.shape = BoardShape{rows, cols};
  r.closed = closed;
  r.all_starts = all_starts;
  return r;
}

Method chosen(int rows, int cols, bool closed, bool all_starts) {
  return choose_method(job(rows, cols, closed, all_starts)).method;
}

// The boundaries of results/bench/method.md (2026-11-27, medians of 3 runs, 2 threads): the
// rows where the faster method changes.
TEST(MethodChoice, ByJobAndSize) {
  // Closed over all starts: one frontier sweep counts every start.
  EXPECT_EQ(chosen(6, 6, true, true), Method::frontier);  // 0.013 s against 0.018 s
  EXPECT_EQ(chosen(4, 9, true, true), Method::frontier);  // 0.006 s against 0.009 s
  EXPECT_EQ(chosen(5, 8, true, true), Method::frontier);  // 0.013 s against 0.146 s
  EXPECT_EQ(chosen(4, 8, true, true), Method::dfs);       // 32 squares: 0.005 s against 0.006 s
  // Closed from one start.
  EXPECT_EQ(chosen(5, 8, true, false), Method::frontier);  // 0.012 s against 0.021 s
  EXPECT_EQ(chosen(6, 6, true, false), Method::dfs);       // 0.007 s against 0.014 s
  // Open, one start or all.
  EXPECT_EQ(chosen(5, 8, false, false), Method::frontier);  // 0.068 s against 0.288 s
  EXPECT_EQ(chosen(5, 8, false, true), Method::frontier);   // 0.163 s against 0.750 s
  EXPECT_EQ(chosen(6, 6, false, false), Method::dfs);       // 0.032 s against 0.117 s
  EXPECT_EQ(chosen(6, 6, false, true), Method::dfs);        // 0.063 s against 0.231 s
  EXPECT_EQ(chosen(5, 7, false, true), Method::dfs);        // 0.031 s against 0.041 s
  // What only one method can count.
  EXPECT_EQ(chosen(8, 9, false, true), Method::frontier);  // past 64 squares
  EXPECT_EQ(chosen(10, 5, true, false), Method::frontier);
}

TEST(MethodChoice, SaysWhy) {
  EXPECT_EQ(choose_method(job(6, 6, true, true)).why,
            "faster for closed, all starts from 36 squares on");
  EXPECT_EQ(choose_method(job(6, 6, true, false)).why,
            "faster for closed, one start below 40 squares");
  EXPECT_EQ(choose_method(job(5, 8, false, false)).why,
            "faster for open, one start from 40 squares on");
}

TEST(MethodChoice, OptionsOfOneMethodPickIt) {
  CountRequest r = job(5, 8, true, true);
  r.caps.max_tours = 10;
  EXPECT_EQ(choose_method(r).method, Method::dfs);
  r = job(6, 6, false, false);
  r.memory_budget = 1 << 30;
  EXPECT_EQ(choose_method(r).method, Method::frontier);
  r.caps.max_nodes = 5;
  EXPECT_THROW(choose_method(r), UsageError);  // options of both methods
  r = job(5, 5, false, false);  // the enumerator's board, but only the frontier method folds
  r.mirror_fold = false;
  EXPECT_EQ(choose_method(r).method, Method::frontier);
}

TEST(MethodChoice, ForcedMethodIsCheckedAgainstTheJob) {
  CountRequest r = job(9, 9, false, true);
  r.method = MethodAsked::dfs;
  EXPECT_THROW(choose_method(r), UsageError);  // 81 squares
  r = job(6, 6, true, true);
  r.method = MethodAsked::dfs;
  EXPECT_EQ(choose_method(r).method, Method::dfs);
  r.method = MethodAsked::frontier;
  EXPECT_EQ(choose_method(r).method, Method::frontier);
}

}  // namespace
}  // namespace knightstour
