#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace knightstour {

// Bytes of anonymous memory this process holds now (RssAnon of /proc/self/status: heap and
// anonymous mappings, not the page cache of mapped files); 0 when unknown.
std::uint64_t anonymous_memory();

// The largest anonymous memory seen while it lives: /proc keeps a high-water mark of the
// resident set (VmHWM), which counts mapped files' pages too, but none of anonymous memory,
// so a thread of its own samples RssAnon every `interval_seconds` (a peak shorter than that
// can be missed; the sample costs a few microseconds).
class AnonymousMemoryPeak {
 public:
  explicit AnonymousMemoryPeak(double interval_seconds = 0.1);
  ~AnonymousMemoryPeak();
  AnonymousMemoryPeak(const AnonymousMemoryPeak&) = delete;
  AnonymousMemoryPeak& operator=(const AnonymousMemoryPeak&) = delete;

  std::uint64_t peak();  // bytes, a sample taken now included
  double interval_seconds() const { return interval_; }

 private:
  void sample();
  double interval_;
  std::atomic<std::uint64_t> peak_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace knightstour
