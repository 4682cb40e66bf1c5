// A step's expansion on its own (step_expander.hpp): the successors the threads keep, part
// by part, are those the direct kernel gives class by class, each in its own part, whatever
// range of parts is kept; a stopped step keeps expanding nothing.
#include "frontier/step/step_expander.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <variant>

#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/sweep/frontier_counter.hpp"

namespace knightstour::frontier_detail {
namespace {

using Counts = std::map<std::uint64_t, std::uint64_t>;

// The classes before step k of a sweep without the mirror fold.
Generation<1> classes_before(const Sweep& sweep, const FrontierTarget& target, int k) {
  FrontierOptions options;
  options.threads = 2;
  options.until_step = k;
  options.fold_mirror = false;
  StopControl stop(Caps{});
  FrontierResult r = run_frontier(sweep, target, options, stop);
  EXPECT_TRUE(r.paused.has_value());
  Generation<1> g = std::move(std::get<Generation<1>>(r.paused->classes));
  return g;
}

struct Expanded {
  Counts kept;  // successor key -> summed count, over the parts kept
  std::uint64_t closed = 0;
  bool misplaced = false;  // a successor in a part not its own
  bool aborted = false;
  std::uint64_t merged = 0;  // successors merged in the combiners
};

// combine: through the threads' combiners (successor_combiner.hpp), as a step tight for
// memory does.
Expanded expand_step(const StepRules& rules, int k, Generation<1>& current, int bits,
                     std::size_t lo, std::size_t hi, StopControl& stop, bool combine = false) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  StepProgress progress;
  StepAbort abort(stop);
  StepExpander<1> expander(rules, k, current, BitKernel::portable, nullptr, abort, progress);
  expander.set_part_bits(bits);
  typename StepExpander<1>::Expansions expansions(
      [&] { return Expansion<1>(hi - lo, 1, budget, combine); });
  expander.expand(expansions, lo, hi);
  Expanded out;
  out.aborted = abort.raised();
  std::uint64_t merged = 0;
  for (auto& e : expansions) {
    // What the combiner holds once the expansion is done (StepCore::keep_combined keeps it the same
    // way).
    EXPECT_TRUE(out.aborted || e.flush(lo));
    merged += e.combiner.merged();
    out.closed += e.closed.limb[0];
    for (std::size_t p = lo; p < hi; ++p) {
      e.blocks.for_each(p - lo, [&](const SuccessorBlocks<1>::Entry& x) {
        out.kept[x.key] += x.count.limb[0];
        if (expander.part_of(x.key) != p) out.misplaced = true;
      });
    }
  }
  out.merged = merged;
  return out;
}

// What the direct kernel gives (transition.hpp), class by class, for the parts [lo, hi) of
// 2^bits.
Expanded direct_step(const StepRules& rules, int k, const Generation<1>& current, int bits,
                     std::size_t lo, std::size_t hi) {
  Expanded out;
  const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
  current.for_each_class([&](std::uint64_t key, const WideCount<1>& count) {
    expand<BitKernel::portable>(
        rules, rule, key,
        [&](std::uint64_t s) {
          const std::size_t p = part_at(route_hash(s, rules.slots), bits);
          if (p >= lo && p < hi) out.kept[s] += count.limb[0];
        },
        [&] { out.closed += count.limb[0]; });
  });
  return out;
}

TEST(StepExpander, KeepsWhatTheDirectKernelGivesInEachPart) {
  struct Case {
    BoardShape shape;
    FrontierTarget target;
  };
  for (const Case& c : {Case{{5, 6}, {false, std::nullopt}}, Case{{6, 6}, {true, std::nullopt}},
                        Case{{5, 5}, {false, 0}}}) {
    const Sweep sweep(c.shape);
    const StepRules rules = make_step_rules(sweep, c.target, false);
    std::uint64_t checked = 0, merged = 0;
    for (int k = 1; k < rules.squares; ++k) {
      SCOPED_TRACE(std::to_string(c.shape.rows) + "x" + std::to_string(c.shape.cols) + " step " +
                   std::to_string(k));
      Generation<1> current = classes_before(sweep, c.target, k);
      StopControl stop(Caps{});
      const Expanded got = expand_step(rules, k, current, 4, 0, 16, stop);
      const Expanded want = direct_step(rules, k, current, 4, 0, 16);
      EXPECT_FALSE(got.misplaced);
      EXPECT_FALSE(got.aborted);
      EXPECT_EQ(got.kept, want.kept);
      EXPECT_EQ(got.closed, want.closed);
      // A range of the parts: only its successors are kept.
      const Expanded some = expand_step(rules, k, current, 4, 5, 11, stop);
      EXPECT_EQ(some.kept, direct_step(rules, k, current, 4, 5, 11).kept);
      // Combined: the same sums, whatever was merged on the way.
      const Expanded combined = expand_step(rules, k, current, 4, 0, 16, stop, true);
      EXPECT_FALSE(combined.misplaced);
      EXPECT_EQ(combined.kept, want.kept);
      EXPECT_EQ(combined.closed, want.closed);
      EXPECT_EQ(got.merged, 0u);
      merged += combined.merged;
      checked += want.kept.size();
    }
    EXPECT_GT(checked, 1000u);
    EXPECT_GT(merged, checked / 20);  // the combiners merged some successors
  }
}

TEST(StepExpander, AStoppedStepKeepsNothing) {
  const Sweep sweep({6, 6});
  const StepRules rules = make_step_rules(sweep, {true, std::nullopt}, false);
  Generation<1> current = classes_before(sweep, {true, std::nullopt}, 20);
  ASSERT_GT(current.size(), 1000u);
  StopControl stop(Caps{});
  stop.request(StopReason::signal);
  const Expanded got = expand_step(rules, 20, current, 4, 0, 16, stop);
  EXPECT_TRUE(got.aborted);
  EXPECT_TRUE(got.kept.empty());
}

}  // namespace
}  // namespace knightstour::frontier_detail
