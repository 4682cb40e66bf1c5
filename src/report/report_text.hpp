#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "knightstour/frontier/wide_count.hpp"
#include "knightstour/report/report.hpp"

// What the report builders share (private to src/report): text by printf formats, counts as
// JSON of any size.
namespace knightstour::report_text {

// printf into a string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Appends printf's text to `text`.
void put(std::string& text, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// Text as a report's lines: split at each '\n' (a last one ends the last line).
std::vector<std::string> lines_of(const std::string& text);
// Adds printf's text as lines of the report (one trailing '\n' dropped).
void say(Report& report, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// A count: a JSON integer when it fits 64 bits, else kExactCount and its digits (Report::json).
nlohmann::json json_count(const BigCount& n);
nlohmann::json json_counts(const std::vector<BigCount>& v);

// "1.23 GiB" (three significant digits; TiB past 1000 GiB, KiB and bytes below 0.01 GiB).
std::string gib(double bytes);

}  // namespace knightstour::report_text
