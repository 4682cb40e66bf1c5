#include "frontier/class/frontier_class.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace knightstour {
namespace {

// A random class of `slots` slots: each slot free, done or an end, the ends paired at
// random (slot 0 is T: open tours use it like any other slot).
Frontier random_frontier(std::mt19937_64& rng, int slots) {
  Frontier f;
  std::vector<int> ends;
  for (int i = 0; i < slots; ++i) {
    switch (rng() % 3) {
      case 0:
        f.free |= 1u << i;
        break;
      case 1:
        f.done |= 1u << i;
        break;
      default:
        ends.push_back(i);
    }
  }
  if (ends.size() % 2 == 1) {
    f.done |= 1u << ends.back();
    ends.pop_back();
  }
  std::shuffle(ends.begin(), ends.end(), rng);
  for (std::size_t i = 0; i < ends.size(); i += 2) {
    f.mate[ends[i]] = static_cast<std::uint8_t>(ends[i + 1]);
    f.mate[ends[i + 1]] = static_cast<std::uint8_t>(ends[i]);
  }
  return f;
}

void expect_same_class(const Frontier& a, const Frontier& b, int slots) {
  const std::uint32_t in = (1u << slots) - 1;
  ASSERT_EQ(a.free & in, b.free & in);
  ASSERT_EQ(a.done & in, b.done & in);
  for (std::uint32_t e = a.ends(slots); e != 0; e &= e - 1) {
    const int i = std::countr_zero(e);
    ASSERT_EQ(a.mate[i], b.mate[i]) << "slot " << i;
  }
}

// Every width the 64-bit key serves (1 .. 9): unpack(pack(f)) is f, the key is canonical (the same
// information always gives the same key, and packing the unpacked key gives it back), it
// passes the invariant check, and unpacking into a step's widened view moves slot i >= 1
// to i + 1 with its mate.
TEST(FrontierClass, PackAndUnpackRoundTripAtEveryWidth) {
  std::mt19937_64 rng(20261124);
  for (int width = 1; width <= kMaxFrontierWidth; ++width) {
    const int slots = class_slots(width);
    for (int trial = 0; trial < 20000; ++trial) {
      const Frontier f = random_frontier(rng, slots);
      const std::uint64_t key = pack(f, slots);
      ASSERT_NE(key, kNoClass);
      Frontier back;
      unpack(key, slots, 0, back);
      expect_same_class(f, back, slots);
      ASSERT_EQ(pack(back, slots), key);
      ASSERT_TRUE(class_invariants_hold(key, slots)) << "width " << width << " key " << key;

      Frontier wide;
      unpack(key, slots, 1, wide);
      auto moved = [](int i) { return i == 0 ? 0 : i + 1; };
      for (int i = 0; i < slots; ++i) {
        const int w = moved(i);
        ASSERT_EQ((wide.free >> w) & 1u, (f.free >> i) & 1u);
        ASSERT_EQ((wide.done >> w) & 1u, (f.done >> i) & 1u);
        if (f.ends(slots) & (1u << i)) {
          ASSERT_EQ(wide.mate[w], moved(f.mate[i]));
        }
      }
      ASSERT_EQ((wide.free | wide.done) & 2u, 0u);  // slot 1 is left for the new square
    }
  }
}

// The mixed-radix form's digits are read back by multiplying with a reciprocal instead of
// dividing: exact for every number a key can hold and every radix.
TEST(FrontierClass, ReciprocalDivisionIsExactForEveryMateNumber) {
  for (int u = 1; u <= kMaxClassSlots / 2; ++u) {
    for (std::uint64_t x = 0; x < frontier_detail::kMaxMateNumber; ++x) {
      if (frontier_detail::divide_small(x, u) != x / static_cast<std::uint64_t>(u)) {
        FAIL() << x << " / " << u;
      }
    }
  }
}

// The widest classes: every slot an end (T too), paired at random and with all openers
// before all closers (the most mate information). They round-trip at every width; up to
// W = 8 they take the fields form; at W = 9 the nested one needs 65 bits of fields and
// takes the mixed-radix form (bit 63 set, the rest below 2^62), which no narrower class takes.
TEST(FrontierClass, ClassesWithEverySlotAnEndFitAtEveryWidth) {
  std::mt19937_64 rng(9);
  for (int width = 1; width <= kMaxFrontierWidth; ++width) {
    const int slots = class_slots(width);
    std::vector<int> order(static_cast<std::size_t>(slots));
    for (int i = 0; i < slots; ++i) order[static_cast<std::size_t>(i)] = i;
    for (int trial = 0; trial < 5001; ++trial) {
      Frontier f;
      if (trial == 0) {  // nested: slot i with slot slots - 1 - i
        for (int i = 0; i < slots; ++i) f.mate[i] = static_cast<std::uint8_t>(slots - 1 - i);
      } else {
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i = 0; i < order.size(); i += 2) {
          f.mate[order[i]] = static_cast<std::uint8_t>(order[i + 1]);
          f.mate[order[i + 1]] = static_cast<std::uint8_t>(order[i]);
        }
      }
      const std::uint64_t key = pack(f, slots);
      ASSERT_NE(key, kNoClass);
      const bool mixed = (key & kMixedRadixMates) != 0;
      if (mixed) {
        ASSERT_EQ(width, 9);
        ASSERT_LT(key & ~kMixedRadixMates, std::uint64_t{1} << 62);
      }
      if (trial == 0) {
        ASSERT_EQ(mixed, width == 9);
      }
      ASSERT_TRUE(class_invariants_hold(key, slots));
      Frontier back;
      unpack(key, slots, 0, back);
      expect_same_class(f, back, slots);
    }
  }
}

// unpack_twice writes the class unpack() gives into both frontiers, with both kernels, at
// every width and in both forms: random classes, and classes with every slot an end (the
// nested one takes the mixed-radix form at W = 9).
template <BitKernel B>
void expect_unpacked_twice() {
  std::mt19937_64 rng(26);
  int mixed_seen = 0;
  for (int width = 1; width <= kMaxFrontierWidth; ++width) {
    const int slots = class_slots(width);
    for (int trial = 0; trial < 3000; ++trial) {
      Frontier f = random_frontier(rng, slots);
      if (trial == 0) {  // every slot an end, nested
        f = Frontier{};
        for (int i = 0; i < slots; ++i) f.mate[i] = static_cast<std::uint8_t>(slots - 1 - i);
      }
      const std::uint64_t key = pack(f, slots);
      if (key & kMixedRadixMates) ++mixed_seen;
      for (const int shift : {0, 1}) {
        Frontier once, a, b;
        const std::uint32_t closers = unpack<B>(key, slots, shift, once);
        ASSERT_EQ(unpack_twice<B>(key, slots, shift, a, b), closers) << "width " << width;
        if (shift == 1) {  // slot 1 is left for the new square, as a step takes it
          for (Frontier* x : {&once, &a, &b}) x->free |= 2u;
        }
        expect_same_class(a, once, slots + shift);
        expect_same_class(b, once, slots + shift);
      }
    }
  }
  EXPECT_GT(mixed_seen, 0);
}

TEST(FrontierClass, UnpackTwiceGivesTheSameClassTwicePortable) {
  expect_unpacked_twice<BitKernel::portable>();
}

TEST(FrontierClass, UnpackTwiceGivesTheSameClassTwiceBmi2) {
  if (!cpu_has_bmi2()) GTEST_SKIP() << "this CPU has no BMI2";
  expect_unpacked_twice<BitKernel::bmi2>();
}

// A class moved one slot up (a step whose new square takes no edge) has the key its
// shifted slots pack to, at every width: random classes whose last slot is done.
TEST(FrontierClass, AShiftedClassKeepsItsMates) {
  std::mt19937_64 rng(12);
  int mixed_seen = 0;
  for (int width = 1; width <= kMaxFrontierWidth; ++width) {
    const int slots = class_slots(width);
    for (int trial = 0; trial < 3000; ++trial) {
      // Slots 0 .. slots - 2: free, done or an end (ends paired at random); the last done.
      Frontier f;
      std::vector<int> ends;
      for (int i = 0; i < slots - 1; ++i) {
        const auto r = rng() % 4;
        if (r == 0) f.free |= 1u << i;
        if (r == 1) f.done |= 1u << i;
        if (r >= 2) ends.push_back(i);
      }
      if (ends.size() % 2 == 1) {
        f.done |= 1u << ends.back();
        ends.pop_back();
      }
      f.done |= 1u << (slots - 1);
      std::shuffle(ends.begin(), ends.end(), rng);
      for (std::size_t i = 0; i < ends.size(); i += 2) {
        f.mate[ends[i]] = static_cast<std::uint8_t>(ends[i + 1]);
        f.mate[ends[i + 1]] = static_cast<std::uint8_t>(ends[i]);
      }
      const std::uint64_t key = pack(f, slots);
      if (key & kMixedRadixMates) ++mixed_seen;
      Frontier moved;
      unpack(key, slots, 1, moved);
      moved.free |= 2u;
      ASSERT_EQ(shifted_key(key, slots), pack(moved, slots)) << "width " << width;
    }
  }
  // The mixed form needs more ends than a class with its last slot done can hold (19 of 20
  // slots at most, so 18 ends: at most 61 bits of fields), so no class in it is shifted.
  EXPECT_EQ(mixed_seen, 0);
}

// Distinct classes get distinct keys (no two pairings of the same ends collide).
TEST(FrontierClass, DistinctPairingsGetDistinctKeys) {
  const int slots = class_slots(4);  // 10 slots: every pairing of 8 ends, 105 of them
  std::vector<int> order = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<std::uint64_t> keys;
  do {
    Frontier f;
    f.free = 1u;
    f.done = 1u << 9;
    for (std::size_t i = 0; i < order.size(); i += 2) {
      f.mate[order[i]] = static_cast<std::uint8_t>(order[i + 1]);
      f.mate[order[i + 1]] = static_cast<std::uint8_t>(order[i]);
    }
    keys.push_back(pack(f, slots));
  } while (std::next_permutation(order.begin(), order.end()));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  EXPECT_EQ(keys.size(), 105u);  // 7 x 5 x 3 x 1
}

// The check refuses what no class can be: a closer before any opener, an unmatched
// opener, an out-of-range mate index, stray bits past the mates, a slot that must be done,
// a class in the form it does not take.
TEST(FrontierClass, InvariantCheckRefusesMalformedKeys) {
  const int slots = class_slots(3);  // 8 slots
  Frontier f;
  f.done = 0b11110000;
  f.mate[1] = 3;
  f.mate[3] = 1;
  f.free = 0b101;
  const std::uint64_t key = pack(f, slots);
  ASSERT_TRUE(class_invariants_hold(key, slots));
  EXPECT_TRUE(class_invariants_hold(key, slots, 0b11110000));
  EXPECT_FALSE(class_invariants_hold(key, slots, 0b00000010));  // slot 1 is an end, not done
  EXPECT_FALSE(class_invariants_hold(key | (std::uint64_t{1} << 40), slots));
  // The mixed-radix form of a class whose fields fit is not canonical.
  const std::uint64_t mixed =
      frontier_detail::pack_mixed(f, slots, frontier_detail::closers_of(f, f.ends(slots)));
  Frontier back;
  unpack(mixed, slots, 0, back);
  expect_same_class(f, back, slots);
  EXPECT_FALSE(class_invariants_hold(mixed, slots));
  const std::uint64_t types_only = key & ((std::uint64_t{1} << (2 * slots)) - 1);
  EXPECT_FALSE(class_invariants_hold((types_only & ~(std::uint64_t{3} << 2)) | (3u << 2), slots));
  EXPECT_FALSE(class_invariants_hold((types_only & ~(std::uint64_t{3} << 6)) | (1u << 6), slots));
  EXPECT_FALSE(class_invariants_hold(kNoClass, slots));
}

}  // namespace
}  // namespace knightstour
