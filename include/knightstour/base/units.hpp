#pragma once

#include <cstdint>
#include <string>

namespace knightstour {

// Numbers a user types for options. `option` names the option in the UsageError a malformed
// or out-of-range value gets ("--max-tours expects a whole number ...").

// Whole numbers: decimal digits, optionally times 10^N ("1e9") or with one suffix K, M, G, T
// (10^3, 10^6, 10^9, 10^12). Anything else (a sign, a fraction, trailing text, overflow) is a
// UsageError naming the option.
std::uint64_t parse_count(const std::string& option, const std::string& text);
int parse_int(const std::string& option, const std::string& text, int min, int max);
// Sizes in bytes (--part-size, --memory): a whole number, optionally with one suffix K, M,
// G or T (powers of 1024, either case): "512M", "2G", "100000". At least 1 byte.
std::uint64_t parse_size(const std::string& option, const std::string& text);
// Seconds: a number, optionally with a unit s, m, h or d; at most kMaxSeconds.
inline constexpr double kMaxSeconds = 100.0 * 365 * 86400;
double parse_seconds(const std::string& option, const std::string& text);

// A size for people: in the largest of bytes, KiB, MiB, GiB and TiB that keeps it at least 1,
// two decimals ("1.00 KiB", "11.14 GiB"), so that a budget of a few KiB does not read 0.00 GiB.
std::string size_text(std::uint64_t bytes);

// 16 lower-case hex digits, zero-padded: how run ids and checksums are written.
std::string hex64(std::uint64_t value);

}  // namespace knightstour
