// Counts modulo a prime (FrontierRequest::modulus) against the exact counts' residues: rows
// whose counts pass 64 bits (so that classes' sums wrap and fold), grids by pinned tails, one
// start, resumed runs, the plan's primes, and the jobs that refuse a modulus.
#include <gtest/gtest.h>

#include <stdexcept>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "support/crashing_journal.hpp"

namespace knightstour {
namespace {

constexpr std::uint64_t kLargePrime = 4611686018427387847ull;  // 2^62 - 57
constexpr std::uint64_t kSmallPrime = 1000003;

FrontierReport count(FrontierRequest request, std::uint64_t modulus) {
  request.modulus = modulus;
  StopControl stop({});
  FrontierOptions options;
  options.threads = 2;
  FrontierReport r = count_by_frontier(request, options, stop);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.modulus, modulus);
  return r;
}

void expect_residues(const BigCount& exact, const BigCount& residue_of, std::uint64_t p) {
  EXPECT_EQ(residue_of, residue(exact, p)) << exact.str() << " mod " << p;
}

void expect_same_modulo(const FrontierReport& exact, const FrontierReport& mod, std::uint64_t p) {
  expect_residues(exact.tours, mod.tours, p);
  expect_residues(exact.closed_tours, mod.closed_tours, p);
  expect_residues(exact.cycles, mod.cycles, p);
  ASSERT_EQ(exact.tours_by_start.size(), mod.tours_by_start.size());
  for (std::size_t s = 0; s < exact.tours_by_start.size(); ++s) {
    expect_residues(exact.tours_by_start[s], mod.tours_by_start[s], p);
    expect_residues(exact.closed_by_start[s], mod.closed_by_start[s], p);
  }
  ASSERT_EQ(exact.by_length.size(), mod.by_length.size());
  for (std::size_t n = 0; n < exact.by_length.size(); ++n) {
    SCOPED_TRACE(n + 1);
    expect_residues(exact.by_length[n].tours, mod.by_length[n].tours, p);
    expect_residues(exact.by_length[n].closed_tours, mod.by_length[n].closed_tours, p);
    expect_residues(exact.by_length[n].cycles, mod.by_length[n].cycles, p);
  }
}

// 5 x n closed passes 64 bits at n = 22, 5 x n open (total) at n = 19.
TEST(ModularJob, RowsPastSixtyFourBitsAreTheExactRowsModuloEachPrime) {
  FrontierRequest closed{{5, 30}, true, {}};
  closed.every_length = true;
  FrontierRequest open{{5, 21}, false, {}};
  open.every_length = true;
  open.total_only = true;
  for (const FrontierRequest& row : {closed, open}) {
    SCOPED_TRACE(row.closed ? "closed" : "open");
    const FrontierReport exact = count(row, 0);
    ASSERT_GT(exact.by_length.back().tours.limbs_used(), 1);
    for (std::uint64_t p : {kLargePrime, kSmallPrime}) {
      SCOPED_TRACE(p);
      const FrontierReport mod = count(row, p);
      EXPECT_EQ(mod.count_bits(), 64);  // one limb throughout
      expect_same_modulo(exact, mod, p);
    }
  }
}

TEST(ModularJob, GridsByPinnedTailsAndOneStartAreTheExactCountsModuloAPrime) {
  for (const FrontierRequest& job :
       {FrontierRequest{{5, 6}, false, {}}, FrontierRequest{{6, 6}, false, 7},
        FrontierRequest{{6, 6}, true, {}}, FrontierRequest{{5, 5}, false, 0, 12}}) {
    SCOPED_TRACE(std::to_string(job.shape.rows) + "x" + std::to_string(job.shape.cols));
    const FrontierReport exact = count(job, 0);
    expect_same_modulo(exact, count(job, 13), 13);
    expect_same_modulo(exact, count(job, kLargePrime), kLargePrime);
  }
}

TEST(ModularJob, AModulusLiftsTheBoundOnARowsCounts) {
  FrontierRequest row{{3, 2000}, true, {}};
  row.every_length = true;
  EXPECT_THROW(validate(row), UsageError);  // past 1024 bits
  row.modulus = kLargePrime;
  EXPECT_NO_THROW(validate(row));
}

TEST(ModularJob, RefusedWhereCountsAreDividedOrKept) {
  StopControl stop({});
  auto refused = [&](FrontierRequest r, std::uint64_t modulus) {
    r.modulus = modulus;
    EXPECT_THROW(count_by_frontier(r, {}, stop), UsageError) << modulus;
  };
  for (std::uint64_t m : {2ull, 9ull, 4611686018427387903ull, 18446744073709551557ull}) {
    refused({{5, 5}, true, {}}, m);
  }
  FrontierRequest pass{{5, 6}, false, {}};
  pass.grid = GridMethod::backward_pass;
  refused(pass, 13);
  FrontierRequest pairs{{5, 6}, false, {}};
  pairs.grid = GridMethod::end_pairs;
  refused(pairs, 13);
}

// Stopped at checkpoints and resumed each time, a row's residues are the uninterrupted ones:
// its checkpoints hold residues, and a resume counts on modulo the same prime.
TEST(ModularJob, ResumesFromAnyCheckpoint) {
  FrontierRequest row{{5, 26}, true, {}};
  row.every_length = true;
  row.modulus = kSmallPrime;
  const FrontierReport whole = count(row, kSmallPrime);
  for (int every : {3, 17}) {
    SCOPED_TRACE(every);
    int runs = 0;
    const FrontierReport r = test::resumed_until_complete(row, every, runs);
    ASSERT_TRUE(r.complete);
    EXPECT_GT(runs, 2);
    EXPECT_EQ(r.modulus, kSmallPrime);
    expect_same_modulo(whole, r, kSmallPrime);
  }
}

// The plan's primes: the largest below 2^62, enough for the bound and one spare; a row's
// residues recovered from all but the spare equal its exact counts.
TEST(ModularJob, TheResiduePrimesOfAJobRecoverItsCounts) {
  FrontierRequest row{{5, 30}, true, {}};
  row.every_length = true;
  const std::vector<std::uint64_t> primes = residue_primes(row);
  // 5x34's Bregman bound needs 5 primes (the row's largest count takes 116 bits), and a spare.
  ASSERT_EQ(primes.size(), 6u);
  EXPECT_EQ(primes.front(), kLargePrime);
  for (std::size_t i = 1; i < primes.size(); ++i) EXPECT_LT(primes[i], primes[i - 1]);
  FrontierRequest big_row{{8, 32}, true, {}};
  big_row.every_length = true;
  // Knuth's 8x32 row: 8 primes for 8x36's bound (its a(32) takes 263 bits) and a spare.
  EXPECT_EQ(residue_primes(big_row).size(), 9u);
  const FrontierReport exact = count(row, 0);
  std::vector<FrontierReport> units;
  for (std::uint64_t p : primes) units.push_back(count(row, p));
  for (std::size_t n = 0; n < exact.by_length.size(); ++n) {
    std::vector<std::pair<std::uint64_t, BigCount>> cycles;
    for (std::size_t u = 0; u + 1 < primes.size(); ++u) {
      cycles.emplace_back(primes[u], units[u].by_length[n].cycles);
    }
    EXPECT_EQ(from_residues(cycles), exact.by_length[n].cycles) << n + 1;
    EXPECT_EQ(residue(exact.by_length[n].cycles, primes.back()), units.back().by_length[n].cycles);
  }
}

}  // namespace
}  // namespace knightstour
