#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "frontier/store/compact_classes.hpp"
#include "frontier/store/memory_budget.hpp"
#include "knightstour/frontier/wide_count.hpp"

namespace knightstour {

// One block of classes decoded (CompactClasses), into a buffer its reader owns (one per
// thread), with room for a block's bytes read from a file; counted in the budget while it
// is held.
template <int K>
class ClassBuffer {
 public:
  // Classes a buffer holds: one block.
  static constexpr std::size_t kClasses = CompactClasses::kBlockClasses;

  explicit ClassBuffer(MemoryBudget* budget = nullptr) : budget_(budget) {}
  ClassBuffer(ClassBuffer&& other) noexcept
      : keys(std::move(other.keys)),
        counts(std::move(other.counts)),
        bytes(std::move(other.bytes)),
        budget_(other.budget_),
        charged_(other.charged_) {
    other.budget_ = nullptr;
    other.charged_ = 0;
  }
  ClassBuffer& operator=(ClassBuffer&&) = delete;
  ClassBuffer(const ClassBuffer&) = delete;
  ClassBuffer& operator=(const ClassBuffer&) = delete;
  ~ClassBuffer() {
    if (budget_ != nullptr) budget_->release(charged_);
  }
  // Room for n classes (at most a block): grown as blocks need it, so that a buffer made
  // for every step of a long thin board (a few hundred classes, wide counts) stays small.
  void ensure(std::size_t n = kClasses) {
    if (keys.size() >= n) return;
    const std::size_t want = std::min(kClasses, std::max(n, 2 * keys.size()));
    charge((want - keys.size()) * (8 + 8 * K));
    keys.resize(want);
    counts.resize(want);
  }
  // Room for a block of n bytes read from a file, and the padding the decoder reads past it.
  std::uint8_t* room_for(std::uint64_t n) {
    const std::uint64_t want = n + CompactClasses::kPadding;
    if (bytes.size() < want) {
      charge(want - bytes.size());
      bytes.resize(want);
    }
    return bytes.data();
  }

  std::vector<std::uint64_t> keys;
  std::vector<WideCount<K>> counts;
  std::vector<std::uint8_t> bytes;

 private:
  void charge(std::uint64_t n) {
    if (budget_ == nullptr) return;
    budget_->charge(n);
    charged_ += n;
  }
  MemoryBudget* budget_;
  std::uint64_t charged_ = 0;
};

}  // namespace knightstour
