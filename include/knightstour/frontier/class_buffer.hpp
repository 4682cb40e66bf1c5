#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "knightstour/frontier/memory_budget.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// Classes read from a file, a chunk at a time, into a buffer the reader owns (one per thread),
// counted in the budget while it is held.
template <int K>
class ClassBuffer {
 public:
  // Classes a chunk holds: 8,192 (128 KiB of one-limb classes), large enough for sequential
  // reads, small enough to stay in the cache while the classes are expanded.
  static constexpr std::size_t kClasses = std::size_t{1} << 13;

  explicit ClassBuffer(MemoryBudget* budget = nullptr) : budget_(budget) {}
  ClassBuffer(ClassBuffer&& other) noexcept
      : keys(std::move(other.keys)), counts(std::move(other.counts)), budget_(other.budget_) {
    other.budget_ = nullptr;
  }
  ClassBuffer& operator=(ClassBuffer&&) = delete;
  ClassBuffer(const ClassBuffer&) = delete;
  ClassBuffer& operator=(const ClassBuffer&) = delete;
  ~ClassBuffer() {
    if (budget_ != nullptr && !keys.empty()) budget_->release(kClasses * (8 + 8 * K));
  }
  void ensure() {
    if (!keys.empty()) return;
    if (budget_ != nullptr) budget_->charge(kClasses * (8 + 8 * K));
    keys.resize(kClasses);
    counts.resize(kClasses);
  }

  std::vector<std::uint64_t> keys;
  std::vector<WideCount<K>> counts;

 private:
  MemoryBudget* budget_;
};

}  // namespace knightstour
