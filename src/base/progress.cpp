#include "knightstour/base/progress.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <cstdio>

namespace knightstour {

ProgressMonitor::ProgressMonitor(double interval_seconds, std::function<std::string()> status)
    : interval_(interval_seconds), status_(std::move(status)) {
  if (interval_ > 0) thread_ = std::thread([this] { loop(); });
}

ProgressMonitor::~ProgressMonitor() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressMonitor::loop() {
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(interval_));
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return done_; })) {
    lock.unlock();
    spdlog::info("{}", status_());
    lock.lock();
  }
}

std::string with_commas(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  const auto n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string human_count(double value) {
  static const char* const kUnits[] = {"", " k", " M", " G", " T", " P", " E"};
  int unit = 0;
  while (std::fabs(value) >= 1000 && unit < 6) {
    value /= 1000;
    ++unit;
  }
  char buffer[32];
  if (unit == 0) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer,
                  value < 10    ? "%.2f%s"
                  : value < 100 ? "%.1f%s"
                                : "%.0f%s",
                  value, kUnits[unit]);
  }
  return buffer;
}

std::string human_duration(double seconds) {
  char buffer[48];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 60) {
    std::snprintf(buffer, sizeof buffer, "%.0f s", seconds);
  } else if (seconds < 3600) {
    std::snprintf(buffer, sizeof buffer, "%d min %02d s", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%d h %02d min", static_cast<int>(seconds) / 3600,
                  static_cast<int>(seconds) % 3600 / 60);
  }
  return buffer;
}

}  // namespace knightstour
