#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace knightstour {

// Bytes the frontier counter may hold in classes. Reservations past the limit fail; the
// counter then stops cleanly (StopReason::memory) instead of being killed by the system.
class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t limit) : limit_(limit) {}
  bool reserve(std::uint64_t bytes) {
    const auto now = used_.fetch_add(bytes) + bytes;
    if (now > limit_) {
      used_.fetch_sub(bytes);
      exceeded_ = true;
      return false;
    }
    note_peak(now);
    return true;
  }
  void release(std::uint64_t bytes) { used_.fetch_sub(bytes); }
  // Counts memory that must be held whatever the limit (short-lived copies).
  void charge(std::uint64_t bytes) { note_peak(used_.fetch_add(bytes) + bytes); }
  std::uint64_t used() const { return used_.load(); }
  std::uint64_t peak() const { return peak_.load(); }
  std::uint64_t limit() const { return limit_; }
  std::uint64_t room() const { return limit_ - std::min(limit_, used()); }
  bool exceeded() const { return exceeded_.load(); }
  // Forgets a refusal once the caller has made room some other way (spilling to disk).
  void clear_exceeded() { exceeded_ = false; }

 private:
  void note_peak(std::uint64_t now) {
    auto peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }

  std::uint64_t limit_;
  std::atomic<std::uint64_t> used_{0};
  std::atomic<std::uint64_t> peak_{0};
  std::atomic<bool> exceeded_{false};
};

}  // namespace knightstour
