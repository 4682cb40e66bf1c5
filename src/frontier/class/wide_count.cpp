#include "knightstour/frontier/wide_count.hpp"

#include <algorithm>
#include <stdexcept>

namespace knightstour {

namespace {
using u128 = uint128;
}

BigCount& BigCount::operator+=(const BigCount& other) {
  unsigned carry = 0;
  for (std::size_t i = 0; i < kLimbs; ++i) {
    const u128 s = static_cast<u128>(limb_[i]) + other.limb_[i] + carry;
    limb_[i] = static_cast<std::uint64_t>(s);
    carry = static_cast<unsigned>(s >> 64);
  }
  if (carry) throw CountTooWide();
  return *this;
}

BigCount BigCount::operator*(std::uint64_t factor) const {
  BigCount out;
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < kLimbs; ++i) {
    const u128 p = static_cast<u128>(limb_[i]) * factor + carry;
    out.limb_[i] = static_cast<std::uint64_t>(p);
    carry = static_cast<std::uint64_t>(p >> 64);
  }
  if (carry) throw CountTooWide();
  return out;
}

BigCount BigCount::operator/(std::uint64_t divisor) const {
  BigCount out;
  u128 rest = 0;
  for (std::size_t i = kLimbs; i-- > 0;) {
    const u128 cur = (rest << 64) | limb_[i];
    out.limb_[i] = static_cast<std::uint64_t>(cur / divisor);
    rest = cur % divisor;
  }
  return out;
}

std::uint64_t BigCount::operator%(std::uint64_t divisor) const {
  u128 rest = 0;
  for (std::size_t i = kLimbs; i-- > 0;) rest = ((rest << 64) | limb_[i]) % divisor;
  return static_cast<std::uint64_t>(rest);
}

bool BigCount::fits_u64() const {
  return std::all_of(limb_.begin() + 1, limb_.end(), [](std::uint64_t x) { return x == 0; });
}

double BigCount::approx() const {
  double v = 0;
  for (std::size_t i = kLimbs; i-- > 0;)
    v = v * 18446744073709551616.0 + static_cast<double>(limb_[i]);
  return v;
}

std::string BigCount::str() const {
  std::string digits;
  BigCount rest = *this;
  constexpr std::uint64_t kChunk = 10'000'000'000'000'000'000ull;  // 10^19
  while (true) {
    const std::uint64_t part = rest % kChunk;
    rest = rest / kChunk;
    std::string chunk = std::to_string(part);
    if (rest == BigCount{}) return chunk + digits;
    digits = std::string(19 - chunk.size(), '0') + chunk + digits;
  }
}

std::string BigCount::with_commas() const {
  const std::string d = str();
  std::string out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

BigCount BigCount::parse(const std::string& decimal) {
  if (decimal.empty() || decimal.size() > 309) throw std::invalid_argument("not a count");
  BigCount out;
  for (char c : decimal) {
    if (c < '0' || c > '9') throw std::invalid_argument("not a count");
    out = out * 10;
    out += BigCount(static_cast<std::uint64_t>(c - '0'));
  }
  return out;
}

namespace {

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return static_cast<std::uint64_t>(static_cast<u128>(a) * b % m);
}

std::uint64_t pow_mod(std::uint64_t base, std::uint64_t exp, std::uint64_t m) {
  std::uint64_t out = 1 % m;
  for (base %= m; exp > 0; exp >>= 1) {
    if (exp & 1) out = mul_mod(out, base, m);
    base = mul_mod(base, base, m);
  }
  return out;
}

}  // namespace

bool is_modulus(std::uint64_t p) { return p >= 3 && p < kModulusBelow && is_prime(p); }

ModularCounts::ModularCounts(std::uint64_t prime) {
  if (!is_modulus(prime)) {
    throw std::logic_error("ModularCounts: not an odd prime below 2^62");
  }
  // 2^64 mod p: (2^64 - p) mod p, as 2^64 - p is what unsigned negation gives.
  const std::uint64_t carry = (0 - prime) % prime;
  std::uint64_t none = 0;
  if (!wide_count_detail::carry_residue.compare_exchange_strong(none, carry)) {
    throw std::logic_error("ModularCounts: a modulus is in force in this process already");
  }
  wide_count_detail::modulus.store(prime);
}

ModularCounts::~ModularCounts() {
  wide_count_detail::modulus.store(0);
  wide_count_detail::carry_residue.store(0);
}

bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  // These 12 bases decide every n < 3.3e24 (Sorenson and Webster 2015), so every 64-bit n.
  constexpr std::uint64_t kBases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (const std::uint64_t p : kBases) {
    if (n % p == 0) return n == p;
  }
  std::uint64_t d = n - 1;
  int twos = 0;
  for (; d % 2 == 0; d /= 2) ++twos;
  for (const std::uint64_t a : kBases) {
    std::uint64_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool witness = true;
    for (int i = 1; i < twos && witness; ++i) {
      x = mul_mod(x, x, n);
      witness = x != n - 1;
    }
    if (witness) return false;
  }
  return true;
}

BigCount residue(const BigCount& x, std::uint64_t p) { return BigCount(x % p); }

BigCount from_residues(const std::vector<std::pair<std::uint64_t, BigCount>>& residues) {
  // x = d[0] + p[0] (d[1] + p[1] (d[2] + ...)), each digit d[i] below p[i].
  std::vector<std::uint64_t> digits;
  for (std::size_t i = 0; i < residues.size(); ++i) {
    const std::uint64_t p = residues[i].first;
    // x's digits so far, and the product of their primes, modulo p.
    std::uint64_t so_far = 0;
    std::uint64_t product = 1;
    for (std::size_t j = i; j-- > 0;) {
      so_far = (mul_mod(so_far, residues[j].first % p, p) + digits[j] % p) % p;
    }
    for (std::size_t j = 0; j < i; ++j) product = mul_mod(product, residues[j].first % p, p);
    const std::uint64_t r = residues[i].second % p;
    const std::uint64_t gap = (r + p - so_far) % p;
    digits.push_back(mul_mod(gap, pow_mod(product, p - 2, p), p));  // Fermat's inverse
  }
  BigCount x;
  for (std::size_t i = digits.size(); i-- > 0;) {
    x = x * residues[i].first;
    x += BigCount(digits[i]);
  }
  return x;
}

BigCount half_residue(const BigCount& x, std::uint64_t p) {
  const std::uint64_t r = x % p;
  // r + p is even when r is odd (p odd) and below 2^63: no carry.
  return BigCount(r % 2 == 0 ? r / 2 : (r + p) / 2);
}

}  // namespace knightstour
