#include "knightstour/frontier/bit_kernel.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <variant>
#include <vector>

#include "frontier/class/frontier_class.hpp"
#include "frontier/class/step_rule.hpp"
#include "frontier/class/transition.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/frontier/sweep.hpp"
#include "support/frontier_generations.hpp"

namespace knightstour {
namespace {

using frontier_detail::gather_even;
using frontier_detail::spread;
using test::for_each_generation_class;

constexpr BitKernel kPortable = BitKernel::portable;
constexpr BitKernel kBmi2 = BitKernel::bmi2;

// The portable primitives against their definition, bit by bit.
TEST(BitKernel, PortablePrimitivesMoveEveryOtherBit) {
  std::mt19937_64 rng(20261126);
  for (int trial = 0; trial < 100000; ++trial) {
    const std::uint64_t x = rng();
    std::uint32_t even = 0;
    for (int b = 0; b < 32; ++b) even |= static_cast<std::uint32_t>((x >> (2 * b)) & 1) << b;
    ASSERT_EQ(gather_even<kPortable>(x), even) << x;
    const auto low = static_cast<std::uint32_t>(x & 0xffffff);  // a class has at most 24 slots
    std::uint64_t spread_bits = 0;
    for (int b = 0; b < 24; ++b) spread_bits |= std::uint64_t{(low >> b) & 1u} << (2 * b);
    ASSERT_EQ(spread<kPortable>(low), spread_bits) << low;
  }
}

TEST(BitKernel, Bmi2PrimitivesEqualThePortableOnes) {
  if (!cpu_has_bmi2()) GTEST_SKIP() << "this CPU has no BMI2";
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 100000; ++trial) {
    const std::uint64_t x = rng();
    ASSERT_EQ(gather_even<kBmi2>(x), gather_even<kPortable>(x)) << x;
    const auto low = static_cast<std::uint32_t>(x & 0xffffff);
    ASSERT_EQ(spread<kBmi2>(low), spread<kPortable>(low)) << low;
  }
}

// Every key of every generation of a few real sweeps (open and closed, three widths) unpacks
// to the same class and expands to the same successors, in the same order, through both
// kernels; the last step's cycles too.
void expect_same_sweep(const Sweep& sweep, const FrontierTarget& target) {
  const StepRules rules = make_step_rules(sweep, target);
  std::uint64_t keys_checked = 0;
  for_each_generation_class(
      sweep, target, rules, [&](int k, const StepRule& rule, std::uint64_t key) {
        Frontier a, b;
        ASSERT_EQ(unpack<kPortable>(key, rules.slots, 1, a), unpack<kBmi2>(key, rules.slots, 1, b));
        ASSERT_EQ(a.free, b.free);
        ASSERT_EQ(a.done, b.done);
        a.free |= 2u;  // the new square, as the step adds it
        b.free |= 2u;
        ASSERT_EQ(pack<kBmi2>(b, rules.slots + 1), pack<kPortable>(a, rules.slots + 1));
        std::vector<std::uint64_t> by_portable, by_bmi2;
        int closed_portable = 0, closed_bmi2 = 0;
        expand<kPortable>(
            rules, rule, key, [&](std::uint64_t s) { by_portable.push_back(s); },
            [&] { ++closed_portable; });
        expand<kBmi2>(
            rules, rule, key, [&](std::uint64_t s) { by_bmi2.push_back(s); },
            [&] { ++closed_bmi2; });
        ASSERT_EQ(by_bmi2, by_portable) << "step " << k << " key " << key;
        ASSERT_EQ(closed_bmi2, closed_portable);
        ++keys_checked;
      });
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  EXPECT_GT(keys_checked, 1000u);
}

// extract_bits and deposit_bits over any mask: the portable ones are each other's inverse,
// and the bmi2 ones (pext, pdep) agree with them where the CPU has BMI2.
TEST(BitKernel, ExtractAndDepositAnyMask) {
  std::mt19937_64 rng(9);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t x = rng();
    std::uint64_t mask = rng();
    if (i % 3 != 0) {  // sparse masks, like the engine's
      mask &= rng();
      mask &= rng();
    }
    const std::uint64_t g = frontier_detail::extract_bits<BitKernel::portable>(x, mask);
    EXPECT_EQ(frontier_detail::deposit_bits<BitKernel::portable>(g, mask), x & mask);
    if (cpu_has_bmi2()) {
      EXPECT_EQ(frontier_detail::extract_bits<BitKernel::bmi2>(x, mask), g);
      EXPECT_EQ(frontier_detail::deposit_bits<BitKernel::bmi2>(g, mask), x & mask);
    }
  }
}

TEST(BitKernel, Bmi2KernelExpandsEveryClassAsThePortableOne) {
  if (!cpu_has_bmi2()) GTEST_SKIP() << "this CPU has no BMI2";
  expect_same_sweep(Sweep({5, 6}), FrontierTarget{false, std::nullopt});  // open, T in use
  expect_same_sweep(Sweep({6, 6}), FrontierTarget{true, std::nullopt});   // closed
  expect_same_sweep(Sweep({7, 4}), FrontierTarget{false, 0});             // open from a corner
}

// What the process runs is one of the two, and bmi2 only where the CPU has it.
TEST(BitKernel, ChosenKernelIsOneThisCpuRuns) {
  const BitKernel k = chosen_bit_kernel();
  EXPECT_TRUE(k == kPortable || cpu_has_bmi2());
  EXPECT_EQ(bit_kernel_name(kPortable), "portable");
  EXPECT_EQ(bit_kernel_name(kBmi2), "bmi2");
}

}  // namespace
}  // namespace knightstour
