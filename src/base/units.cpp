#include "knightstour/base/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string_view>

#include "knightstour/base/errors.hpp"

namespace knightstour {

namespace {

// value * 10^exponent, or nothing when it passes 2^64.
std::optional<std::uint64_t> scaled(std::uint64_t value, unsigned exponent) {
  for (unsigned i = 0; i < exponent; ++i) {
    if (__builtin_mul_overflow(value, std::uint64_t{10}, &value)) return std::nullopt;
  }
  return value;
}

}  // namespace

std::uint64_t parse_count(const std::string& option, const std::string& text) {
  const auto bad = [&] {
    return UsageError("--" + option + " expects a whole number (like 5000, 1e9 or 2G), not '" +
                      text + "'");
  };
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text[0] == '-' || text[0] == '+' || ec != std::errc{}) throw bad();
  std::optional<std::uint64_t> out = value;
  const std::string_view rest(ptr, static_cast<std::size_t>(end - ptr));
  if (rest.empty()) return value;
  if (rest.size() == 1 && std::string_view("KMGT").find(rest[0]) != std::string_view::npos) {
    out = scaled(value, 3 * (1 + static_cast<unsigned>(std::string_view("KMGT").find(rest[0]))));
  } else if (rest.size() >= 2 && (rest[0] == 'e' || rest[0] == 'E')) {
    unsigned exponent = 0;
    const auto [p2, e2] = std::from_chars(rest.data() + 1, end, exponent);
    if (e2 != std::errc{} || p2 != end || rest[1] == '+' || exponent > 20) throw bad();
    out = scaled(value, exponent);
  } else {
    throw bad();
  }
  if (!out) throw UsageError("--" + option + " is too large: " + text);
  return *out;
}

int parse_int(const std::string& option, const std::string& text, int min, int max) {
  const auto value = parse_count(option, text);
  if (value < static_cast<std::uint64_t>(min) || value > static_cast<std::uint64_t>(max)) {
    throw UsageError("--" + option + " must be between " + std::to_string(min) + " and " +
                     std::to_string(max) + ", not " + text);
  }
  return static_cast<int>(value);
}

std::uint64_t parse_size(const std::string& option, const std::string& text) {
  const auto bad = [&] {
    return UsageError("--" + option + " expects a size such as 16G, 500M or 1000000 bytes, not '" +
                      text + "'");
  };
  std::string digits = text;
  std::uint64_t unit = 1;
  constexpr std::string_view kSuffixes = "KMGT";
  if (!digits.empty()) {
    const auto suffix = kSuffixes.find(static_cast<char>(std::toupper(digits.back())));
    if (suffix != std::string_view::npos) {
      unit = 1ull << (10 * (suffix + 1));
      digits.pop_back();
    }
  }
  std::uint64_t value = 0;
  try {
    value = parse_count(option, digits);
  } catch (const UsageError&) {
    throw bad();
  }
  if (value == 0) throw bad();
  if (value > UINT64_MAX / unit) throw UsageError("--" + option + " is too large: " + text);
  return value * unit;
}

double parse_seconds(const std::string& option, const std::string& text) {
  const auto bad = [&] {
    return UsageError("--" + option +
                      " expects seconds >= 0 (like 90, 1.5, 90s, 15m, 2h or 1d), not '" + text +
                      "'");
  };
  double value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || !std::isfinite(value) || value < 0) throw bad();
  const std::string_view rest(ptr, static_cast<std::size_t>(end - ptr));
  if (rest == "m") {
    value *= 60;
  } else if (rest == "h") {
    value *= 3600;
  } else if (rest == "d") {
    value *= 86400;
  } else if (!rest.empty() && rest != "s") {
    throw bad();
  }
  // Deadlines are steady_clock time points: far beyond this they overflow and fire at once.
  if (value > kMaxSeconds) {
    throw UsageError("--" + option + " is at most " +
                     std::to_string(static_cast<int>(kMaxSeconds / 86400)) + " days, not '" + text +
                     "'");
  }
  return value;
}

std::string size_text(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[40];
  std::snprintf(text, sizeof text, "%.2f %s", value, kUnits[unit]);
  return text;
}

std::string hex64(std::uint64_t value) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(value));
  return hex;
}

}  // namespace knightstour
