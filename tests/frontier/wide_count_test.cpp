// Wide counts: the arithmetic the backward pass adds to the DP's (products, differences,
// widening), against 128-bit integers and BigCount's decimal form.
#include "knightstour/frontier/wide_count.hpp"

#include <gtest/gtest.h>

#include <random>

namespace knightstour {
namespace {

WideCount<2> of(uint128 x) {
  return WideCount<2>{{static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(x >> 64)}};
}

TEST(WideCount, ProductsAndDifferencesMatch128BitArithmetic) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    // Factors of up to 64 bits whose product fits, and some that do not.
    const int bits_a = static_cast<int>(rng() % 64) + 1;
    const int bits_b = static_cast<int>(rng() % 64) + 1;
    const uint128 a = rng() >> (64 - bits_a);
    const uint128 b = (rng() >> (64 - bits_b)) | 1;  // at least 1: a * b - a >= 0
    WideCount<2> p = of(a);
    EXPECT_FALSE(p.multiply(of(b)));
    EXPECT_EQ(p, of(a * b));
    WideCount<2> d = of(a * b);
    EXPECT_FALSE(d.subtract(of(a)));
    EXPECT_EQ(d, of(a * b - a));
  }
  WideCount<2> big = of(uint128{1} << 70);
  EXPECT_TRUE(big.multiply(of(uint128{1} << 60)));  // 2^130: past 128 bits
  WideCount<2> small = of(5);
  EXPECT_TRUE(small.subtract(of(6)));
  WideCount<1> top{{~std::uint64_t{0}}};
  EXPECT_TRUE(top.multiply(WideCount<1>{{2}}));
}

TEST(WideCount, WideProductsCarryAcrossEveryLimb) {
  // (2^512 - 1) * 3 in 16 limbs, against its decimal value.
  WideCount<16> x;
  for (int i = 0; i < 8; ++i) x.limb[static_cast<std::size_t>(i)] = ~std::uint64_t{0};
  WideCount<16> three;
  three.limb[0] = 3;
  ASSERT_FALSE(x.multiply(three));
  BigCount two_to_512(1);
  for (int i = 0; i < 16; ++i) two_to_512 = two_to_512 * (std::uint64_t{1} << 32);
  const BigCount expected = two_to_512 * 3;
  // 2^512 * 3 - 3
  BigCount minus3 = BigCount::of(x);
  minus3 += BigCount(3);
  EXPECT_EQ(minus3, expected);
  EXPECT_EQ(expected.limbs_used(), 9);
  EXPECT_EQ(BigCount(1).limbs_used(), 1);
  EXPECT_EQ(BigCount().limbs_used(), 1);
  EXPECT_EQ(BigCount::of(x).to_wide<16>(), x);
  EXPECT_THROW(BigCount::of(x).to_wide<8>(), CountTooWide);
  EXPECT_EQ((WideCount<1>{{42}}.widened<4>()), (WideCount<4>{{42, 0, 0, 0}}));
}

}  // namespace
}  // namespace knightstour
