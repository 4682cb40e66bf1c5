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

}  // namespace knightstour
