#include "knightstour/count/frontier_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"
#include "knightstour/io/temp_directory.hpp"
#include "knightstour/run/manifest.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

const MethodChoice kFrontier{Method::frontier, "as asked with --method frontier"};

CountRequest open_all_starts(int rows, int cols) {
  CountRequest r;
  r.shape = BoardShape{rows, cols};
  r.closed = false;
  r.all_starts = true;
  r.method = MethodAsked::frontier;
  return r;
}

CountRequest closed_from_a1(int rows, int cols) {
  CountRequest r;
  r.shape = BoardShape{rows, cols};
  r.closed = true;
  r.prefix = {0};
  r.method = MethodAsked::frontier;
  return r;
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      ::unsetenv(name_);
    } else {
      ::setenv(name_, old_.c_str(), 1);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
};

TEST(FrontierPlan, TheGridComesFromTheOptionElseTheEnvironmentElseTheShards) {
  EXPECT_EQ(plan_frontier(open_all_starts(5, 8), kFrontier).request.grid, GridMethod::automatic);
  {
    const ScopedEnv env("KNIGHTSTOUR_GRID", "tails");
    EXPECT_EQ(plan_frontier(open_all_starts(5, 8), kFrontier).request.grid,
              GridMethod::pinned_tails);
    CountRequest asked = open_all_starts(5, 8);
    asked.grid = GridMethod::backward_pass;  // the option wins
    EXPECT_EQ(plan_frontier(asked, kFrontier).request.grid, GridMethod::backward_pass);
  }
  {
    const ScopedEnv env("KNIGHTSTOUR_GRID", "sideways");
    EXPECT_THROW(plan_frontier(open_all_starts(5, 8), kFrontier), UsageError);
  }
  CountRequest sharded = open_all_starts(5, 8);
  sharded.shard = Shard{1, 3};
  const FrontierPlan p = plan_frontier(sharded, kFrontier);
  EXPECT_EQ(p.request.grid, GridMethod::end_pairs);
  ASSERT_GT(p.sweeps, 6);
  // Unit k goes to shard k mod 3.
  for (std::size_t i = 0; i < p.shard_units.size(); ++i) {
    EXPECT_EQ(p.shard_units[i], static_cast<int>(1 + 3 * i));
  }
  EXPECT_EQ(static_cast<int>(p.shard_units.size()), (p.sweeps + 1) / 3);
}

TEST(FrontierPlan, AShardOfOneUnitNamesItsPair) {
  CountRequest one = open_all_starts(8, 8);
  one.shard = Shard{3, 136};
  const std::vector<std::string> lines = describe(plan_frontier(one, kFrontier));
  ASSERT_FALSE(lines.empty());
  // Unit 3 of 8x8 is the corner to corner pair along an edge and its images.
  EXPECT_NE(std::find_if(lines.begin(), lines.end(),
                         [](const std::string& l) {
                           return l.find("unit 3, open tours a1-h1 and the 8 pairs") !=
                                  std::string::npos;
                         }),
            lines.end());
}

TEST(FrontierPlan, RefusesWhatNoFrontierCountIs) {
  CountRequest grid_of_closed = closed_from_a1(6, 6);
  grid_of_closed.grid = GridMethod::pinned_tails;
  EXPECT_THROW(plan_frontier(grid_of_closed, kFrontier), UsageError);
  CountRequest sharded_closed = closed_from_a1(6, 6);
  sharded_closed.shard = Shard{0, 2};
  EXPECT_THROW(plan_frontier(sharded_closed, kFrontier), UsageError);
  CountRequest too_wide = closed_from_a1(10, 10);
  EXPECT_THROW(plan_frontier(too_wide, kFrontier), UsageError);
}

TEST(FrontierPlan, MemoryIsAskedOrHalfOfWhatIsAvailable) {
  CountRequest asked = closed_from_a1(6, 6);
  asked.memory_budget = 3u << 20;
  const FrontierPlan a = plan_frontier(asked, kFrontier);
  EXPECT_TRUE(a.memory.asked);
  EXPECT_EQ(a.memory.memory_budget, 3u << 20);
  EXPECT_FALSE(a.memory.past_available());
  asked.memory_budget = ~std::uint64_t{0} / 2;
  EXPECT_EQ(plan_frontier(asked, kFrontier).memory.past_available(), a.memory.available > 0);

  const FrontierPlan d = plan_frontier(closed_from_a1(6, 6), kFrontier);
  EXPECT_FALSE(d.memory.asked);
  if (d.memory.available > 0) {
    EXPECT_EQ(d.memory.memory_budget, d.memory.available / 2);
  } else {
    EXPECT_EQ(d.memory.memory_budget, 4ull << 30);
  }
  const std::vector<std::string> lines = describe(a);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.front().find("3.00 MiB"), std::string::npos) << lines.front();
  EXPECT_NE(lines.front().find("$memory_budget"), std::string::npos) << lines.front();
}

TEST(FrontierPlan, SpillsWhereTheRequestSays) {
  CountRequest r = closed_from_a1(6, 6);
  EXPECT_EQ(plan_frontier(r, kFrontier).spill.to, SpillTo::folder);
  EXPECT_FALSE(plan_frontier(r, kFrontier).spill.named);
  EXPECT_EQ(plan_frontier(r, kFrontier).spill.parent, default_temp_parent());
  r.run_dir = "somewhere";
  EXPECT_EQ(plan_frontier(r, kFrontier).spill.to, SpillTo::run_directory);
  r.spill_dir = "/scratch/spill";  // a named folder wins over the run directory
  const FrontierPlan named = plan_frontier(r, kFrontier);
  EXPECT_EQ(named.spill.to, SpillTo::folder);
  EXPECT_TRUE(named.spill.named);
  EXPECT_EQ(named.spill.parent, std::filesystem::path("/scratch/spill"));
  r.spill_dir = "none";
  EXPECT_EQ(plan_frontier(r, kFrontier).spill.to, SpillTo::nowhere);
}

// A new run saves every 10 minutes unless asked; a resumed one keeps its own interval unless
// the command line gives one, and counts the run's job.
TEST(FrontierPlan, CheckpointIntervalAndJobOfAResumedRun) {
  EXPECT_EQ(plan_frontier(closed_from_a1(6, 6), kFrontier).checkpoint_seconds,
            kDefaultCheckpointSeconds);
  test::TempDir dir;
  FrontierRequest job;
  job.shape = {5, 8};
  job.closed = false;
  FrontierManifest base;
  { FrontierRunDir::create(dir / "run", job, base, 120); }
  const FrontierManifest m = read_frontier_manifest(dir / "run");
  CountRequest resume;
  resume.resume = true;
  resume.run_dir = dir / "run";
  const FrontierPlan kept = plan_frontier(resume, kFrontier, &m);
  EXPECT_EQ(kept.checkpoint_seconds, 120);
  EXPECT_EQ(kept.request.shape, (BoardShape{5, 8}));
  EXPECT_FALSE(kept.request.start.has_value());
  EXPECT_EQ(kept.spill.to, SpillTo::run_directory);
  resume.checkpoint_seconds = 30;
  EXPECT_EQ(plan_frontier(resume, kFrontier, &m).checkpoint_seconds, 30);
}

}  // namespace
}  // namespace knightstour
