// Wide counts: the arithmetic the backward pass adds to the DP's (products, differences,
// widening), against 128-bit integers and BigCount's decimal form.
#include "knightstour/frontier/wide_count.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

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

TEST(WideCount, PrimesAreToldApartFromStrongPseudoprimes) {
  for (std::uint64_t p :
       {2ull, 3ull, 5ull, 1000003ull, 2305843009213693951ull /* 2^61 - 1 */,
        4611686018427387847ull /* 2^62 - 57 */, 18446744073709551557ull /* 2^64 - 59 */}) {
    EXPECT_TRUE(is_prime(p)) << p;
  }
  // 561 is a Carmichael number; 3215031751 passes bases 2, 3, 5, 7; 3825123056546413051
  // passes every base up to 23; the last is (2^31 - 1)^2.
  for (std::uint64_t n : {0ull, 1ull, 4ull, 561ull, 3215031751ull, 3825123056546413051ull,
                          4611686018427387903ull /* 2^62 - 1 */, 4611686014132420609ull}) {
    EXPECT_FALSE(is_prime(n)) << n;
  }
}

// Sums that wrap 64 bits many times, taken modulo p by the one-limb addition, against the
// exact sum's residue.
TEST(WideCount, ModularSumsStayCongruentToTheExactSum) {
  for (std::uint64_t p : {4611686018427387847ull, 1000003ull, 3ull}) {
    SCOPED_TRACE(p);
    std::mt19937_64 rng(p);
    BigCount exact;
    WideCount<1> sum;
    {
      const ModularCounts modular(p);
      for (int i = 0; i < 100000; ++i) {
        const std::uint64_t x = i % 3 == 0 ? ~std::uint64_t{0} - (rng() & 0xff) : rng();
        exact += BigCount(x);
        ASSERT_FALSE(sum.add(WideCount<1>{{x}}));  // never too wide
      }
    }
    EXPECT_EQ(BigCount(sum.limb[0]) % p, exact % p);
    EXPECT_TRUE(WideCount<1>{{~std::uint64_t{0}}}.add(WideCount<1>{{1}}));  // exact again
  }
}

TEST(WideCount, OneModulusAtATime) {
  const ModularCounts modular(7);
  EXPECT_THROW(ModularCounts{7}, std::logic_error);
  EXPECT_THROW(ModularCounts{11}, std::logic_error);
}

TEST(WideCount, ModuliThatAreNotOddPrimesBelow2To62AreRefused) {
  for (std::uint64_t m : {0ull, 1ull, 2ull, 9ull, 4611686018427387903ull,
                          18446744073709551557ull /* prime, past 2^62 */}) {
    EXPECT_THROW(ModularCounts{m}, std::logic_error) << m;
  }
}

TEST(WideCount, ResiduesAndHalves) {
  const BigCount big = BigCount::parse("123456789012345678901234567890");
  EXPECT_EQ(residue(big, 1000003), BigCount(big % 1000003));
  for (std::uint64_t p : {3ull, 1000003ull, 4611686018427387847ull}) {
    const BigCount even = big * 2;
    EXPECT_EQ(half_residue(even, p), residue(big, p)) << p;
    // Twice the half is the residue again, odd or even.
    EXPECT_EQ(residue(half_residue(big, p) * 2, p), residue(big, p)) << p;
  }
}

// A 290-bit number from its residues modulo five 62-bit primes, in any order; four are not
// enough (their product is below it), and a residue changed changes the number.
TEST(WideCount, TheChineseRemainderTheoremRecoversACountPast64Bits) {
  const BigCount big = BigCount::parse(
      "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678");
  const std::vector<std::uint64_t> primes = {4611686018427387847ull, 4611686018427387817ull,
                                             4611686018427387787ull, 4611686018427387761ull,
                                             4611686018427387751ull};
  std::vector<std::pair<std::uint64_t, BigCount>> residues;
  for (std::uint64_t p : primes) residues.emplace_back(p, residue(big, p));
  EXPECT_EQ(from_residues(residues), big);
  std::swap(residues[0], residues[3]);
  EXPECT_EQ(from_residues(residues), big);
  // Unreduced residues are reduced first.
  residues[1].second += BigCount(residues[1].first) * 7;
  EXPECT_EQ(from_residues(residues), big);
  residues.pop_back();
  EXPECT_NE(from_residues(residues), big);
  residues[2].second += BigCount(1);
  EXPECT_NE(from_residues(residues), big);
  EXPECT_EQ(from_residues({{13, BigCount(5)}, {7, BigCount(3)}}), BigCount(31));
}

}  // namespace
}  // namespace knightstour
