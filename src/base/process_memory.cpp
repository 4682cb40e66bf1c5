#include "knightstour/base/process_memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace knightstour {

std::uint64_t anonymous_memory() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  std::uint64_t kib = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "RssAnon:", 8) == 0) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(line + 8, &end, 10);
      if (end != line + 8) kib = v;
      break;
    }
  }
  std::fclose(f);
  return kib * 1024;
}

AnonymousMemoryPeak::AnonymousMemoryPeak(double interval_seconds)
    : interval_(interval_seconds > 0 ? interval_seconds : 0.1) {
  sample();
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    const auto period = std::chrono::duration<double>(interval_);
    while (!wake_.wait_for(lock, period, [this] { return stop_; })) sample();
  });
}

AnonymousMemoryPeak::~AnonymousMemoryPeak() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void AnonymousMemoryPeak::sample() {
  const std::uint64_t now = anonymous_memory();
  std::uint64_t seen = peak_.load();
  while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
  }
}

std::uint64_t AnonymousMemoryPeak::peak() {
  sample();
  return peak_.load();
}

}  // namespace knightstour
