#include "knightstour/exec/driver.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "knightstour/board/square.hpp"
#include "knightstour/exec/count_sink.hpp"
#include "support/count_helpers.hpp"

namespace knightstour {
namespace {

using test::count;
using test::EngineKnobs;
using test::make_all_starts_job;
using test::make_job;

EngineKnobs split(int threads, int depth) {
  EngineKnobs k;
  k.threads = threads;
  k.split_depth = depth;
  return k;
}

TEST(CountEngine, SixBySixFromTheCorner) {
  const auto r = count(make_job("6x6", "a1"));
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.tours, 524'486u);
  EXPECT_EQ(r.closed, 19'724u);
  EXPECT_EQ(r.tours_by_start[0], 524'486u);
  EXPECT_EQ(std::accumulate(r.tours_by_end.begin(), r.tours_by_end.end(), std::uint64_t{0}),
            r.tours);
}

TEST(CountEngine, ClosedModeCountsOnlyClosedTours) {
  EngineKnobs k;
  k.closed = true;
  const auto r = count(make_job("6x6", "a1", k));
  EXPECT_EQ(r.tours, 19'724u);
  EXPECT_EQ(r.closed, 19'724u);
}

TEST(CountEngine, PrefixCountsOnlyItsTours) {
  EXPECT_EQ(count(make_job("6x6", "a1,b3")).tours, 262'243u);
  EXPECT_EQ(count(make_job("6x6", "a1,c2")).tours, 262'243u);
}

TEST(CountEngine, AllStartsFiveByFive) {
  const auto r = count(make_all_starts_job("5x5"));
  EXPECT_EQ(r.tours, 1'728u);
  const Board b(5, 5);
  auto at = [&](const char* sq) {
    return r.tours_by_start[static_cast<std::size_t>(parse_square(b, sq))];
  };
  EXPECT_EQ(at("a1"), 304u);
  EXPECT_EQ(at("e1"), 304u);
  EXPECT_EQ(at("a5"), 304u);
  EXPECT_EQ(at("e5"), 304u);
  EXPECT_EQ(at("c3"), 64u);
  EXPECT_EQ(at("c1"), 56u);
  EXPECT_EQ(at("b2"), 56u);
  EXPECT_EQ(at("b1"), 0u);
}

TEST(CountEngine, AllStartsSmallRectangles) {
  EXPECT_EQ(count(make_all_starts_job("3x4")).tours, 16u);
  EXPECT_EQ(count(make_all_starts_job("4x3")).tours, 16u);
  EXPECT_EQ(count(make_all_starts_job("4x5")).tours, 164u);
  EXPECT_EQ(count(make_all_starts_job("4x4")).tours, 0u);
}

TEST(CountEngine, ClosedCyclesOverAllStarts) {
  EngineKnobs k;
  k.closed = true;
  EXPECT_EQ(count(make_all_starts_job("3x10", k)).tours, 16u * 2 * 30);
  EXPECT_EQ(count(make_all_starts_job("5x6", k)).tours, 8u * 2 * 30);
  EXPECT_EQ(count(make_all_starts_job("6x6", k)).tours, 9'862u * 2 * 36);
}

TEST(CountEngine, AllStartsSixBySix) {
  const auto r = count(make_all_starts_job("6x6"));
  EXPECT_EQ(r.tours, 6'637'920u);
  EXPECT_EQ(r.closed, 9'862u * 2 * 36);
  EXPECT_EQ(r.tours_by_start[0], 524'486u);
  // Reversal: tours from s ending on e are the reverses of tours from e ending on s, so the
  // all-starts end counts equal the start counts.
  EXPECT_EQ(r.tours_by_end, r.tours_by_start);
}

TEST(CountEngine, SameTotalsForAnyThreadsAndSplitDepth) {
  const auto reference = count(make_job("6x6", "a1"));
  for (int threads : {1, 2, 3, 8}) {
    for (int depth : {0, 1, 2, 5, 9, 14}) {
      EngineKnobs k;
      k.threads = threads;
      k.split_depth = depth;
      const auto r = count(make_job("6x6", "a1", k));
      EXPECT_EQ(r.tours, reference.tours) << threads << " threads, depth " << depth;
      EXPECT_EQ(r.tours_by_end, reference.tours_by_end);
      EXPECT_EQ(r.shard_prefixes, r.prefixes_done);
    }
  }
}

TEST(CountEngine, SymmetryOffGivesTheSameCountsWithMoreSearching) {
  EngineKnobs off;
  off.symmetry = false;
  off.split_depth = 4;
  EngineKnobs on = off;
  on.symmetry = true;
  const auto a = count(make_all_starts_job("6x6", off));
  const auto b = count(make_all_starts_job("6x6", on));
  EXPECT_EQ(a.tours_by_start, b.tours_by_start);
  EXPECT_EQ(a.tours_by_end, b.tours_by_end);
  EXPECT_EQ(a.searches, a.shard_prefixes);
  EXPECT_LT(b.searches * 6, a.searches);
  EXPECT_LT(b.nodes * 4, a.nodes);
}

TEST(CountEngine, NaiveAlgorithmCountsTheSame) {
  EngineKnobs k;
  k.algorithm = Algorithm::naive;
  const auto naive = count(make_all_starts_job("5x5", k));
  const auto pruned = count(make_all_starts_job("5x5"));
  EXPECT_EQ(naive.tours_by_start, pruned.tours_by_start);
  EXPECT_GT(naive.nodes, 50 * pruned.nodes);
}

TEST(CountEngine, ShardsPartitionThePrefixes) {
  const auto whole = count(make_job("6x6", "a1", split(2, 6)));
  std::uint64_t sum = 0;
  std::size_t prefixes = 0;
  for (int i = 0; i < 3; ++i) {
    EngineKnobs k = split(2, 6);
    k.shard = {i, 3};
    const auto r = count(make_job("6x6", "a1", k));
    EXPECT_TRUE(r.complete());
    EXPECT_EQ(r.plan_prefixes, whole.plan_prefixes);
    sum += r.tours;
    prefixes += r.shard_prefixes;
  }
  EXPECT_EQ(sum, whole.tours);
  EXPECT_EQ(prefixes, whole.plan_prefixes);
}

// Shards are dealt whole symmetry orbits, so together they search exactly what one run
// searches: the same prefixes, the same nodes, the same counts.
TEST(CountEngine, ShardsOfAnAllStartsJobSearchWhatOneRunSearches) {
  const auto whole = count(make_all_starts_job("6x6", split(2, 5)));
  ASSERT_TRUE(whole.complete());
  for (const int n : {2, 3, 4, 8, 64}) {
    std::uint64_t nodes = 0, tours = 0;
    std::size_t searches = 0, prefixes = 0;
    for (int i = 0; i < n; ++i) {
      EngineKnobs k = split(2, 5);
      k.shard = {i, n};
      const auto r = count(make_all_starts_job("6x6", k));
      EXPECT_TRUE(r.complete());
      nodes += r.nodes;
      tours += r.tours;
      searches += r.searches;
      prefixes += r.shard_prefixes;
    }
    EXPECT_EQ(tours, whole.tours) << n << " shards";
    EXPECT_EQ(prefixes, whole.plan_prefixes) << n << " shards";
    EXPECT_EQ(searches, whole.searches) << n << " shards";
    EXPECT_EQ(nodes, whole.nodes) << n << " shards";
  }
  // Dealing prefix ids instead (run directories of manifest format 1) splits orbits: the
  // counts still add up, but shards search representatives of what they derive.
  std::uint64_t nodes = 0, tours = 0;
  for (int i = 0; i < 4; ++i) {
    EngineKnobs k = split(2, 5);
    k.shard = {i, 4, ShardRule::ids};
    const auto r = count(make_all_starts_job("6x6", k));
    nodes += r.nodes;
    tours += r.tours;
  }
  EXPECT_EQ(tours, whole.tours);
  EXPECT_GT(nodes, 2 * whole.nodes);
}

TEST(CountEngine, NodeCapStopsWithALowerBound) {
  EngineKnobs k;
  k.caps.max_nodes = 200'000;
  const auto r = count(make_job("6x6", "a1", k));
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.stop_reason, StopReason::node_cap);
  EXPECT_LT(r.prefixes_done, r.shard_prefixes);
  EXPECT_LT(r.tours, 524'486u);
  EXPECT_LT(r.nodes, 2'000'000u);  // overshoot bounded by threads x poll interval
}

TEST(CountEngine, TourCapStops) {
  EngineKnobs k;
  k.caps.max_tours = 1000;
  const auto r = count(make_job("6x6", "a1", k));
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.stop_reason, StopReason::tour_cap);
  EXPECT_LT(r.tours, 524'486u);
}

TEST(CountEngine, TimeLimitStopsPromptly) {
  EngineKnobs k;
  k.caps.time_limit = 0.2;
  const auto r = count(make_job("7x7", "a1", k));
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.stop_reason, StopReason::time_limit);
  EXPECT_LT(r.seconds, 0.7);  // the start-up sampling honours the limit too
}

// Keeps what it is given, and hands back a chosen part of it as done by an earlier session.
class MemoryLedger : public Ledger {
 public:
  std::vector<std::optional<PrefixResult>> before;
  std::vector<PrefixResult> recorded;
  std::vector<std::optional<PrefixResult>> done_before() const override { return before; }
  void record(std::span<const PrefixResult> results) override {
    recorded.insert(recorded.end(), results.begin(), results.end());
  }
};

TEST(CountEngine, ResumedPrefixesAreNotSearchedAgain) {
  const JobRequest job = make_job("6x6", "a1", split(2, 4));
  const Plan plan = resolve(job.request, 2);
  CountSink sink;
  MemoryLedger first;
  StopControl stop1(job.caps);
  run_plan(plan, sink, first, {2}, stop1);
  ASSERT_EQ(first.recorded.size(), plan.shard_prefixes());
  MemoryLedger second;
  second.before.resize(plan.prefixes().size());
  for (const auto& r : first.recorded) {
    if (r.id % 2 == 0) second.before[r.id] = r;
  }
  StopControl stop2(job.caps);
  const auto r = run_plan(plan, sink, second, {2}, stop2);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.tours, 524'486u);
  EXPECT_LT(r.searches, r.shard_prefixes);
  EXPECT_EQ(second.recorded.size() + r.prefixes_before, plan.shard_prefixes());
  for (const auto& rec : second.recorded) EXPECT_NE(rec.id % 2, 0u);
}

}  // namespace
}  // namespace knightstour
