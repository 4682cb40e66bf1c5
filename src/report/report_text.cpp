#include "report_text.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "knightstour/base/units.hpp"

namespace knightstour::report_text {

namespace {

// printf's text of `fmt` with the same arguments twice: `sizing` to measure it, `writing` to
// write it (a va_list is read once; each caller starts both).
std::string vformat(const char* fmt, va_list sizing, va_list writing) {
  const int n = std::vsnprintf(nullptr, 0, fmt, sizing);
  std::string text(static_cast<std::size_t>(std::max(n, 0)) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), fmt, writing);
  text.resize(static_cast<std::size_t>(std::max(n, 0)));
  return text;
}

}  // namespace

std::string format(const char* fmt, ...) {
  va_list sizing, writing;
  va_start(sizing, fmt);
  va_start(writing, fmt);
  std::string text = vformat(fmt, sizing, writing);
  va_end(writing);
  va_end(sizing);
  return text;
}

void say(Report& report, const char* fmt, ...) {
  va_list sizing, writing;
  va_start(sizing, fmt);
  va_start(writing, fmt);
  std::string text = vformat(fmt, sizing, writing);
  va_end(writing);
  va_end(sizing);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  report.lines.push_back(std::move(text));
}

void put(std::string& text, const char* fmt, ...) {
  va_list sizing, writing;
  va_start(sizing, fmt);
  va_start(writing, fmt);
  text += vformat(fmt, sizing, writing);
  va_end(writing);
  va_end(sizing);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t end = text.find('\n', from);
    if (end == std::string::npos) {
      lines.push_back(text.substr(from));
      break;
    }
    lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  return lines;
}

nlohmann::json json_count(const BigCount& n) {
  if (n.fits_u64()) return n.low();
  return std::string(kExactCount) + n.str();
}

nlohmann::json json_counts(const std::vector<BigCount>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& x : v) a.push_back(json_count(x));
  return a;
}

std::string gib(double bytes) {
  const double gibs = bytes / (1024.0 * 1024 * 1024);
  if (gibs >= 1000) return format("%.3g TiB", gibs / 1024);  // "0.986 TiB", not "1.01e+03 GiB"
  // A tiny budget: "1 KiB", not "9.54e-07 GiB".
  if (gibs < 0.01) return size_text(static_cast<std::uint64_t>(bytes));
  return format("%.3g GiB", gibs);
}

}  // namespace knightstour::report_text
