#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "knightstour/count/count_request.hpp"

namespace knightstour {
namespace {

CountRequest from_a1() {
  CountRequest r;
  r.shape = BoardShape{5, 5};
  r.prefix = {0};
  return r;
}

TEST(CheckRequest, AGoodRequestHasNoRefusal) {
  EXPECT_TRUE(check(from_a1()).empty());
  CountRequest r = from_a1();
  r.end = 7;
  EXPECT_TRUE(check(r).empty());
  r = from_a1();
  r.run_dir = "somewhere";
  r.resume = true;
  r.checkpoint_seconds = 60;
  EXPECT_TRUE(check(r).empty());
}

// Each refusal names the fields it is about, never a flag: the CLI spells those.
TEST(CheckRequest, RefusalsNameFields) {
  CountRequest r = from_a1();
  r.resume = true;
  EXPECT_EQ(check(r), std::vector<std::string>{"$resume needs $run_dir DIR"});
  r = from_a1();
  r.checkpoint_seconds = 60;
  EXPECT_EQ(check(r), std::vector<std::string>{
                          "$checkpoint_seconds needs $run_dir DIR (where the checkpoints go)"});
  r = from_a1();
  r.end = 0;
  EXPECT_EQ(check(r), std::vector<std::string>{
                          "$end must be another square than $start (a tour visits each square "
                          "once)"});
}

// Every rule broken is listed, in the order they are checked; run_count refuses the first.
TEST(CheckRequest, EveryRuleBrokenInOrder) {
  CountRequest r = from_a1();
  r.up_to_symmetry = true;
  r.run_dir = "somewhere";
  r.end = 3;
  r.closed = true;
  r.caps.max_tours = 5;
  const std::vector<std::string> refused = check(r);
  ASSERT_EQ(refused.size(), 5U);
  EXPECT_EQ(refused[0].rfind("$up_to_symmetry counts in one session", 0), 0U) << refused[0];
  EXPECT_EQ(refused[1].rfind("$end counts in one session", 0), 0U) << refused[1];
  EXPECT_EQ(refused[2].rfind("$end counts open tours between two squares", 0), 0U) << refused[2];
  EXPECT_EQ(refused[3], "$end and $up_to_symmetry do not go together");
  EXPECT_EQ(refused[4].rfind("$max_tours caps the tours found to any end", 0), 0U) << refused[4];
  for (const std::string& why : refused) EXPECT_EQ(why.find("--"), std::string::npos) << why;
}

}  // namespace
}  // namespace knightstour
