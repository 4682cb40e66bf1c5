#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace knightstour {

// GCC and Clang's 128-bit integer (__extension__ keeps -Wpedantic quiet about it).
__extension__ typedef unsigned __int128 uint128;

namespace wide_count_detail {
// 2^64 mod p while a ModularCounts is in force, else 0 (counts are exact).
inline std::atomic<std::uint64_t> carry_residue{0};
inline std::atomic<std::uint64_t> modulus{0};  // p, or 0

// A 64-bit sum wrapped: its low word is `low`, and 2^64 was carried out. Counting modulo p,
// 2^64 is worth carry_residue: added back, the count stays congruent to the exact one (the
// second addition cannot carry: after a wrap low < carry_residue < 2^62). Exact, it does not
// fit: true. Read only when a sum wraps, so exact counts pay nothing for it.
inline bool fold_carry(std::uint64_t& low) {
  const std::uint64_t carry = carry_residue.load(std::memory_order_relaxed);
  if (carry == 0) return true;
  if (__builtin_add_overflow(low, carry, &low)) low += carry;
  return false;
}
}  // namespace wide_count_detail

// An unsigned integer of K 64-bit limbs (least significant first): the DP's counts. K = 1
// and K = 2 compile to plain 64- and 128-bit additions. Every addition reports overflow, so
// a count never wraps in silence: the counter widens its counts and redoes the step.
// Under ModularCounts (below), one limb's additions never overflow: they are taken modulo p.
template <int K>
struct WideCount {
  std::array<std::uint64_t, K> limb{};

  // this += other; true when the result does not fit in K limbs.
  bool add(const WideCount& other) {
    if constexpr (K == 1) {
      if (!__builtin_add_overflow(limb[0], other.limb[0], &limb[0])) [[likely]]
        return false;
      return wide_count_detail::fold_carry(limb[0]);
    } else if constexpr (K == 2) {
      // cppcheck does not evaluate `if constexpr` and takes uint128 for a 32-bit type:
      using u128 = uint128;
      // cppcheck-suppress [containerOutOfBounds, shiftTooManyBits]
      const u128 a = (static_cast<u128>(limb[1]) << 64) | limb[0];
      // cppcheck-suppress shiftTooManyBits
      const u128 b = (static_cast<u128>(other.limb[1]) << 64) | other.limb[0];
      u128 sum;
      const bool overflow = __builtin_add_overflow(a, b, &sum);
      limb[0] = static_cast<std::uint64_t>(sum);
      // cppcheck-suppress [containerOutOfBounds, shiftTooManyBits]
      limb[1] = static_cast<std::uint64_t>(sum >> 64);
      return overflow;
    } else {
      unsigned char carry = 0;
      for (int i = 0; i < K; ++i) {
        const std::uint64_t a = limb[static_cast<std::size_t>(i)];
        const std::uint64_t s = a + other.limb[static_cast<std::size_t>(i)];
        const std::uint64_t t = s + carry;
        carry = static_cast<unsigned char>((s < a) | (t < s));
        limb[static_cast<std::size_t>(i)] = t;
      }
      return carry != 0;
    }
  }
  // this -= other; true when other is larger (the result then wraps). Exact counts only
  // (the backward pass, which refuses a modulus), as is multiply.
  bool subtract(const WideCount& other) {
    unsigned char borrow = 0;
    for (int i = 0; i < K; ++i) {
      const std::uint64_t a = limb[static_cast<std::size_t>(i)];
      const std::uint64_t d = a - other.limb[static_cast<std::size_t>(i)];
      const std::uint64_t t = d - borrow;
      borrow = static_cast<unsigned char>((d > a) | (t > d));
      limb[static_cast<std::size_t>(i)] = t;
    }
    return borrow != 0;
  }
  // this *= other; true when the product does not fit in K limbs (the result is then its
  // low K limbs). Schoolbook: used per path end, not per class (backward_pass.cpp).
  bool multiply(const WideCount& other) {
    std::array<std::uint64_t, K> out{};
    bool overflow = false;
    for (int i = 0; i < K; ++i) {
      const std::uint64_t a = limb[static_cast<std::size_t>(i)];
      if (a == 0) continue;
      std::uint64_t carry = 0;
      for (int j = 0; j < K; ++j) {
        const std::uint64_t b = other.limb[static_cast<std::size_t>(j)];
        if (i + j >= K) {
          overflow = overflow || b != 0;
          continue;
        }
        const std::size_t at = static_cast<std::size_t>(i) + static_cast<std::size_t>(j);
        const uint128 p = static_cast<uint128>(a) * b + out[at] + carry;
        out[at] = static_cast<std::uint64_t>(p);
        carry = static_cast<std::uint64_t>(p >> 64);
      }
      overflow = overflow || carry != 0;
    }
    limb = out;
    return overflow;
  }
  // The same number in L >= K limbs.
  template <int L>
  WideCount<L> widened() const {
    static_assert(L >= K);
    WideCount<L> w;
    for (int i = 0; i < K; ++i)
      w.limb[static_cast<std::size_t>(i)] = limb[static_cast<std::size_t>(i)];
    return w;
  }
  bool is_zero() const {
    for (auto x : limb) {
      if (x != 0) return false;
    }
    return true;
  }
  friend bool operator==(const WideCount&, const WideCount&) = default;
};

// The widest count the frontier method keeps: 16 limbs, 1024 bits (about 1.8e308). Long
// boards need them: 3x300's open tours from a corner take about 530 bits, 6x90's 550.
inline constexpr int kMaxLimbs = 16;

// A count that would pass kMaxLimbs limbs: the board is too big to count (the CLI says so
// with exit 2).
class CountTooWide : public std::overflow_error {
 public:
  CountTooWide() : std::overflow_error("the count passes 1024 bits") {}
};

// Counting modulo a prime p: while one is alive, this process's counts of one limb are
// kept congruent modulo p to the exact counts instead of widening (wide_count_detail), so a
// count of any size takes one limb a class; reduce the sums with residue() at the end. One
// at a time in a process (a second while one is alive is a std::logic_error); only
// additions are taken modulo p (WideCount::subtract and multiply stay exact).
class ModularCounts {
 public:
  explicit ModularCounts(std::uint64_t prime);
  ~ModularCounts();
  // The prime in force in this process, or 0 (counts are exact).
  static std::uint64_t in_force() {
    return wide_count_detail::modulus.load(std::memory_order_relaxed);
  }
  ModularCounts(const ModularCounts&) = delete;
  ModularCounts& operator=(const ModularCounts&) = delete;
};

inline constexpr std::uint64_t kModulusBelow = std::uint64_t{1} << 62;
bool is_prime(std::uint64_t n);  // exact for every 64-bit n (Miller-Rabin, 12 bases)
// A modulus a count may take: a prime, odd (2^64 must not vanish modulo it), below
// kModulusBelow = 2^62 (sums of two residues and a carry fit 64 bits).
bool is_modulus(std::uint64_t p);

// An exact count of up to 1024 bits for reports: sums and small multiples of DP results.
class BigCount {
 public:
  static constexpr int kLimbs = kMaxLimbs;

  BigCount() = default;
  explicit BigCount(std::uint64_t value) { limb_[0] = value; }
  template <int K>
  static BigCount of(const WideCount<K>& w) {
    static_assert(K <= kLimbs);
    BigCount b;
    for (int i = 0; i < K; ++i)
      b.limb_[static_cast<std::size_t>(i)] = w.limb[static_cast<std::size_t>(i)];
    return b;
  }

  // Throw CountTooWide past 1024 bits.
  BigCount& operator+=(const BigCount& other);
  BigCount operator*(std::uint64_t factor) const;
  BigCount operator/(std::uint64_t divisor) const;  // divisor > 0; remainder dropped
  std::uint64_t operator%(std::uint64_t divisor) const;

  bool fits_u64() const;
  std::uint64_t low() const { return limb_[0]; }
  // The count in K limbs; CountTooWide when it does not fit.
  template <int K>
  WideCount<K> to_wide() const {
    WideCount<K> w;
    for (int i = 0; i < kLimbs; ++i) {
      const std::uint64_t x = limb_[static_cast<std::size_t>(i)];
      if (i < K) {
        w.limb[static_cast<std::size_t>(i)] = x;
      } else if (x != 0) {
        throw CountTooWide();
      }
    }
    return w;
  }
  // 64-bit limbs up to the highest nonzero one (at least 1).
  int limbs_used() const {
    int n = kLimbs;
    while (n > 1 && limb_[static_cast<std::size_t>(n) - 1] == 0) --n;
    return n;
  }
  double approx() const;                              // nearest double, for rates and logs
  std::string str() const;                            // decimal
  std::string with_commas() const;                    // 1,234,567
  static BigCount parse(const std::string& decimal);  // std::invalid_argument if malformed

  friend bool operator==(const BigCount&, const BigCount&) = default;

 private:
  std::array<std::uint64_t, kLimbs> limb_{};
};

// A sweep's count as it leaves the sweep: its residue while a ModularCounts is alive (so that
// every count a report or a journal holds is reduced), else the count itself.
template <int K>
BigCount reported(const WideCount<K>& count);

// `x` modulo `p` (> 0), and half of x modulo an odd p (x / 2 when x is even: the half of
// an even count, taken of its residue).
BigCount residue(const BigCount& x, std::uint64_t p);
BigCount half_residue(const BigCount& x, std::uint64_t p);

// The Chinese remainder theorem: the one x below the product of the primes (distinct, odd,
// below 2^62) with x = r (mod p) for every (p, r) given (r is reduced here). CountTooWide past
// 1024 bits. Garner's mixed-radix form: 64-bit arithmetic modulo each prime, then one sum.
BigCount from_residues(const std::vector<std::pair<std::uint64_t, BigCount>>& residues);

template <int K>
BigCount reported(const WideCount<K>& count) {
  const std::uint64_t p = ModularCounts::in_force();
  return p != 0 ? residue(BigCount::of(count), p) : BigCount::of(count);
}

}  // namespace knightstour
