#include "knightstour/base/progress.hpp"

#include <spdlog/spdlog.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace knightstour {

ProgressMonitor::ProgressMonitor(double interval_seconds, std::function<std::string()> status,
                                 std::function<double()> fraction)
    : interval_(interval_seconds), status_(std::move(status)), fraction_(std::move(fraction)) {
  terminal_ = isatty(STDERR_FILENO) == 1 && std::getenv("KNIGHTSTOUR_PROGRESS_LINES") == nullptr;
  if (interval_ > 0 && spdlog::should_log(spdlog::level::info))
    thread_ = std::thread([this] { loop(); });
}

ProgressMonitor::~ProgressMonitor() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (drawn_) std::fputs("\r\033[K", stderr);  // the summary starts on a clean line
}

void ProgressMonitor::redraw() {
  winsize size{};
  const int width =
      ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20 ? size.ws_col : 100;
  const auto room = static_cast<std::size_t>(width - 1);
  std::string line = status_();
  const double f = fraction_ ? fraction_() : -1;
  // The bar only where it leaves the whole status in view.
  constexpr std::size_t kBar = 20;
  if (f >= 0 && line.size() + kBar + 3 <= room) {
    const auto filled = static_cast<std::size_t>(std::min(1.0, f) * kBar);
    line =
        std::string("[").append(filled, '#').append(kBar - filled, '.').append("] ").append(line);
  }
  if (line.size() > room) {
    // Cut the middle, not the end: elapsed time and ETA are what a narrow terminal needs most.
    const auto tail_at = line.rfind(", elapsed ");
    if (tail_at != std::string::npos && line.size() - tail_at + 4 < room) {
      const std::string tail = line.substr(tail_at);
      line.replace(room - tail.size() - 3, std::string::npos, "..." + tail);
    } else {
      line.resize(room);
    }
  }
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressMonitor::loop() {
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(interval_));
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return done_; })) {
    lock.unlock();
    if (terminal_) {
      redraw();
    } else {
      spdlog::info("{}", status_());
    }
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

std::string plural(const std::string& noun) {
  return noun + (!noun.empty() && noun.back() == 'x' ? "es" : "s");
}

std::string how_many(std::uint64_t n, const std::string& noun) {
  return with_commas(n) + " " + (n == 1 ? noun : plural(noun));
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
