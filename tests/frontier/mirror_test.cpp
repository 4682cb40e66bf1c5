#include "frontier/class/mirror.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "frontier/class/step_rule.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {
namespace {

// The classes of a sweep after step k (not folded), read from the paused sweep.
std::vector<std::uint64_t> classes_after(const Sweep& sweep, const FrontierTarget& target, int k) {
  FrontierOptions options;
  options.until_step = k + 1;
  options.fold_mirror = false;
  StopControl stop(Caps{});
  const FrontierResult r = run_frontier(sweep, target, options, stop);
  std::vector<std::uint64_t> keys;
  if (!r.paused) return keys;
  std::get<Generation<1>>(r.paused->classes)
      .for_each_class([&](std::uint64_t key, const WideCount<1>&) { keys.push_back(key); });
  return keys;
}

// The number of ways the rest of the sweep completes the class `key` after step k.
std::string completions(const Sweep& sweep, const FrontierTarget& target, int k,
                        std::uint64_t key) {
  Generation<1> one;
  one.parts.push_back(part_of<1>({key}, {WideCount<1>{{1}}}));
  FrontierState state;
  state.next_step = k + 1;
  state.classes = std::move(one);
  FrontierOptions options;
  options.fold_mirror = false;
  StopControl stop(Caps{});
  const FrontierResult r = run_frontier(sweep, target, options, stop, std::move(state));
  return r.complete ? r.count.str() : "stopped";
}

TEST(Mirror, MapsEachColumnOntoItselfReversedAndKeepsTheOtherSlots) {
  for (int w = 1; w <= kMaxFrontierWidth; ++w) {
    const MirrorMap m = across_mirror(w);
    ASSERT_EQ(m.slots, class_slots(w));
    EXPECT_EQ(m.to[0], 0) << w;                  // T
    EXPECT_EQ(m.to[2 * w + 1], 2 * w + 1) << w;  // done after a column's end
    for (int d = 0; d < 2 * w; ++d) {
      const int u = w - 1 - d % w;  // the square's position across
      const int image = m.to[1 + d] - 1;
      EXPECT_EQ(image / w, d / w) << w << " " << d;              // the same column
      EXPECT_EQ(w - 1 - image % w, w - 1 - u) << w << " " << d;  // u -> W-1-u
      EXPECT_EQ(m.to[m.to[1 + d]], 1 + d) << w << " " << d;
    }
  }
}

// On every class after every step that ends a column, of sweeps of several widths (nine
// wide included): the image is a class (I1, I3), the image of the image is the class, the
// image's pattern is mirrored_pattern's, and the class and its image choose the same key.
TEST(Mirror, ImagesOfRealClassesAreClassesAndAgreeOnTheKeptOne) {
  struct Case {
    BoardShape shape;
    Orientation o;
    FrontierTarget target;
  };
  const std::vector<Case> cases = {
      {{5, 6}, {}, {true, {}}},
      {{6, 6}, {}, {true, {}}},
      {{5, 5}, {}, {false, {}}},
      {{4, 7}, {}, {false, {}}},
      {{3, 9}, {false, false, false, true}, {true, {}}},  // nine wide
  };
  std::uint64_t seen = 0, kept_image = 0, symmetric = 0;
  for (const auto& c : cases) {
    const Sweep sweep(c.shape, c.o);
    const StepRules rules = make_step_rules(sweep, c.target);
    const int w = sweep.width();
    const std::uint32_t in = (1u << rules.slots) - 1;
    for (int k = w - 1; k < sweep.size() - 1; k += w) {
      const StepRule& rule = rules.steps[static_cast<std::size_t>(k)];
      ASSERT_TRUE(rule.fold_mirror) << k;
      for (const std::uint64_t key : classes_after(sweep, c.target, k)) {
        const std::uint64_t image = mirrored_key(key, rules.mirror);
        ASSERT_TRUE(class_invariants_hold(image, rules.slots, rule.no_future & in))
            << c.shape.name() << " step " << k << " key " << key;
        ASSERT_EQ(mirrored_key(image, rules.mirror), key);
        if (cpu_has_bmi2()) {
          ASSERT_EQ(mirrored_key<BitKernel::bmi2>(key, rules.mirror), image);
        }
        ASSERT_EQ(type_pattern(image, rules.slots),
                  mirrored_pattern(type_pattern(key, rules.slots), rules.mirror));
        const std::uint64_t kept = mirror_canonical(key, rules.mirror);
        ASSERT_EQ(mirror_canonical(image, rules.mirror), kept);
        ASSERT_TRUE(kept == key || kept == image);
        ++seen;
        kept_image += kept == image && image != key ? 1 : 0;
        symmetric += image == key ? 1 : 0;
      }
    }
  }
  // Both choices and symmetric classes occur, so each branch above was taken.
  EXPECT_GT(seen, 1000u);
  EXPECT_GT(kept_image, 100u);
  EXPECT_GT(symmetric, 10u);
}

// What folding rests on: after a step that ends a column, a class and its mirror image have
// the same number of completions: for cycles, for open paths with T free, and for paths
// pinned on the mirror's axis (5x7 at c3, sweep vertex 12), before the pin as after it.
TEST(Mirror, AClassAndItsImageHaveTheSameCompletions) {
  struct Case {
    BoardShape shape;
    FrontierTarget target;
  };
  for (const Case& c : {Case{{6, 6}, {true, {}}}, Case{{5, 5}, {false, {}}},
                        Case{{4, 6}, {false, {}}}, Case{{5, 7}, {false, 12}}}) {
    const Sweep sweep(c.shape);
    const StepRules rules = make_step_rules(sweep, c.target);
    const int w = sweep.width();
    int compared = 0, nonzero = 0;
    for (int k = w - 1; k < sweep.size() - 1; k += w) {
      const auto keys = classes_after(sweep, c.target, k);
      // A spread of each generation's classes: about 40 of them.
      const std::size_t stride = keys.size() / 40 + 1;
      for (std::size_t i = 0; i < keys.size(); i += stride) {
        const std::uint64_t image = mirrored_key(keys[i], rules.mirror);
        if (image == keys[i]) continue;
        const std::string mine = completions(sweep, c.target, k, keys[i]);
        EXPECT_EQ(mine, completions(sweep, c.target, k, image))
            << c.shape.name() << " step " << k << " key " << keys[i];
        ++compared;
        nonzero += mine != "0" ? 1 : 0;
      }
    }
    EXPECT_GT(compared, 40) << c.shape.name();
    EXPECT_GT(nonzero, 5) << c.shape.name();
  }
}

// Folded and not, a sweep gives the same count, from fewer classes folded, on two threads.
// Counts from OEIS (A001230: 6x6 9,862 cycles; A165134: 5x5 1,728 directed open tours, so
// 864 paths; 5x6 8 cycles) and DESIGN.md (5x5 from the centre, a pin on the axis: 64), or
// for a nine-wide sweep of 3x9 the plain three-wide sweep's.
TEST(Mirror, FoldingKeepsTheCountsWithFewerClasses) {
  auto count = [](const Sweep& sweep, const FrontierTarget& target, bool fold) {
    FrontierOptions options;
    options.threads = 2;
    options.fold_mirror = fold;
    StopControl stop(Caps{});
    return run_frontier(sweep, target, options, stop);
  };
  const Sweep three_wide({3, 9});
  const std::string paths_3x9 = count(three_wide, {false, {}}, false).count.str();
  EXPECT_NE(paths_3x9, "0");
  struct Case {
    BoardShape shape;
    Orientation o;
    FrontierTarget target;
    std::string count;
  };
  const std::vector<Case> cases = {
      {{6, 6}, {}, {true, {}}, "9862"},
      {{5, 6}, {}, {true, {}}, "8"},
      {{5, 5}, {}, {false, {}}, "864"},
      {{3, 9}, {false, false, false, true}, {false, {}}, paths_3x9},
      {{5, 5}, {}, {false, 12}, "64"},  // from the centre, on the axis (DESIGN.md)
  };
  for (const auto& c : cases) {
    const Sweep sweep(c.shape, c.o);
    std::uint64_t expanded[2] = {};
    for (const bool fold : {false, true}) {
      const FrontierResult r = count(sweep, c.target, fold);
      ASSERT_TRUE(r.complete);
      EXPECT_EQ(r.count.str(), c.count) << c.shape.name() << (fold ? " folded" : "");
      expanded[fold ? 1 : 0] = r.expanded;
    }
    EXPECT_LT(expanded[1], expanded[0]) << c.shape.name();
  }
}

// Only steps that end a column, not the last, and a pinned sweep only where its pin is on the
// mirror's axis (the middle of an odd width), before the pin as after it (mirror.hpp); never
// the all-starts prefix (pinned past the last square) or an even width's pin.
TEST(Mirror, StepsThatFold) {
  const Sweep sweep({5, 7});
  const StepRules closed = make_step_rules(sweep, {true, {}});
  const StepRules open = make_step_rules(sweep, {false, {}});
  const StepRules pinned = make_step_rules(sweep, {false, 0});
  const StepRules off_axis = make_step_rules(sweep, {false, 21});  // u = 1
  const StepRules on_axis = make_step_rules(sweep, {false, 22});   // u = 2, the middle
  const StepRules prefix = make_step_rules(sweep, {false, sweep.size()});
  const StepRules off = make_step_rules(sweep, {true, {}}, false);
  for (int k = 0; k < sweep.size(); ++k) {
    const bool ends_column = k % 5 == 4 && k != sweep.size() - 1;
    const auto at = static_cast<std::size_t>(k);
    EXPECT_EQ(closed.steps[at].fold_mirror, ends_column) << k;
    EXPECT_EQ(open.steps[at].fold_mirror, ends_column) << k;
    EXPECT_EQ(on_axis.steps[at].fold_mirror, ends_column) << k;
    EXPECT_FALSE(pinned.steps[at].fold_mirror) << k;
    EXPECT_FALSE(off_axis.steps[at].fold_mirror) << k;
    EXPECT_FALSE(prefix.steps[at].fold_mirror) << k;
    EXPECT_FALSE(off.steps[at].fold_mirror) << k;
  }
  const Sweep even({6, 7});
  const StepRules middle = make_step_rules(even, {false, 2});
  for (const auto& r : middle.steps) EXPECT_FALSE(r.fold_mirror);
}

}  // namespace
}  // namespace knightstour
