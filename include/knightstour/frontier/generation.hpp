#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "knightstour/frontier/frontier_class.hpp"
#include "knightstour/frontier/spill.hpp"
#include "knightstour/frontier/wide_count.hpp"

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
    auto peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
    return true;
  }
  void release(std::uint64_t bytes) { used_.fetch_sub(bytes); }
  // Counts memory that must be held whatever the limit (short-lived copies).
  void charge(std::uint64_t bytes) {
    const auto now = used_.fetch_add(bytes) + bytes;
    auto peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }
  std::uint64_t used() const { return used_.load(); }
  std::uint64_t peak() const { return peak_.load(); }
  std::uint64_t limit() const { return limit_; }
  std::uint64_t room() const { return limit_ - std::min(limit_, used()); }
  bool exceeded() const { return exceeded_.load(); }
  // Forgets a refusal once the caller has made room some other way (spilling to disk).
  void clear_exceeded() { exceeded_ = false; }

 private:
  std::uint64_t limit_;
  std::atomic<std::uint64_t> used_{0};
  std::atomic<std::uint64_t> peak_{0};
  std::atomic<bool> exceeded_{false};
};

// The murmur3 finalizer: spreads a class key over 64 bits. The top bits choose a class's
// part, the low bits its place in the part's table.
inline std::uint64_t class_hash(std::uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key;
}

// The classes of one step and their counts, split into parts by hash (parts let threads
// build and sweep them side by side), each part dense: 8 + 8K bytes a class. A part lives
// in memory (its vectors, counted in the budget) or in a spill file the generation maps
// (not counted: the kernel pages it in and out).
template <int K>
struct Generation {
  struct Part {
    std::vector<std::uint64_t> keys;
    std::vector<WideCount<K>> counts;
    const std::uint64_t* file_keys = nullptr;  // set when the part is in a spill file
    const WideCount<K>* file_counts = nullptr;
    std::size_t file_size = 0;

    bool in_file() const { return file_keys != nullptr; }
    std::size_t size() const { return in_file() ? file_size : keys.size(); }
    const std::uint64_t* key_data() const { return in_file() ? file_keys : keys.data(); }
    const WideCount<K>* count_data() const { return in_file() ? file_counts : counts.data(); }
  };
  std::vector<Part> parts;
  std::vector<std::shared_ptr<const SpillMapping>> files;  // keep the file parts mapped

  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.size();
    return n;
  }
  // Bytes of the parts held in memory (what the budget counts).
  std::uint64_t memory_bytes() const {
    std::uint64_t n = 0;
    for (const auto& p : parts) n += p.in_file() ? 0 : p.keys.size() * kClassBytes;
    return n;
  }
  static constexpr std::uint64_t kClassBytes = 8 + 8 * K;
  static constexpr int kLimbs = K;
};

// Parts being written to one spill file; `map` then points them into the mapped file.
// Keys and counts of a part lie next to each other in the file.
template <int K>
class PartSpiller {
 public:
  explicit PartSpiller(SpillArea& area) : area_(area), file_(area.create()) {}

  // Moves an in-memory part to the file and releases its bytes from the budget.
  void add(typename Generation<K>::Part& part, std::size_t index, MemoryBudget& budget) {
    const std::uint64_t n = part.keys.size();
    if (n == 0 || part.in_file()) return;
    const std::uint64_t keys_at = file_.append(part.keys.data(), n * 8);
    const std::uint64_t counts_at = file_.append(part.counts.data(), n * 8 * K);
    placed_.push_back({index, keys_at, counts_at, n});
    area_.count_written(n * Generation<K>::kClassBytes);
    part.keys = {};
    part.counts = {};
    budget.release(n * Generation<K>::kClassBytes);
  }

  void map(Generation<K>& g) {
    auto mapping = file_.map();
    for (const auto& pl : placed_) {
      auto& part = g.parts[pl.part];
      part.file_keys = reinterpret_cast<const std::uint64_t*>(mapping->data() + pl.keys_at);
      part.file_counts = reinterpret_cast<const WideCount<K>*>(mapping->data() + pl.counts_at);
      part.file_size = pl.n;
    }
    if (!placed_.empty()) g.files.push_back(std::move(mapping));
  }

 private:
  struct Placed {
    std::size_t part;
    std::uint64_t keys_at, counts_at, n;
  };
  SpillArea& area_;
  SpillFile file_;
  std::vector<Placed> placed_;
};

// Moves every in-memory part of g to a spill file.
template <int K>
void spill_parts(Generation<K>& g, SpillArea& area, MemoryBudget& budget) {
  PartSpiller<K> spiller(area);
  for (std::size_t p = 0; p < g.parts.size(); ++p) spiller.add(g.parts[p], p, budget);
  spiller.map(g);
}

// The same classes with counts twice as wide; the budget then holds the wider generation's
// bytes in place of the narrower one's. A generation with parts in spill files is widened
// into a new spill file part by part when `area` can spill (else into memory).
template <int K>
Generation<2 * K> widened(Generation<K>&& g, MemoryBudget& budget, SpillArea* area = nullptr) {
  bool from_file = false;
  for (const auto& part : g.parts) from_file = from_file || part.in_file();
  std::optional<PartSpiller<2 * K>> spiller;
  if (from_file && area != nullptr && area->enabled()) spiller.emplace(*area);
  Generation<2 * K> out;
  out.parts.resize(g.parts.size());
  for (std::size_t p = 0; p < g.parts.size(); ++p) {
    auto& in = g.parts[p];
    auto& o = out.parts[p];
    const std::uint64_t classes = in.size();
    budget.charge(classes * Generation<2 * K>::kClassBytes);
    o.keys.assign(in.key_data(), in.key_data() + classes);
    o.counts.resize(classes);
    const WideCount<K>* counts = in.count_data();
    for (std::size_t i = 0; i < classes; ++i) {
      for (int l = 0; l < K; ++l)
        o.counts[i].limb[static_cast<std::size_t>(l)] = counts[i].limb[static_cast<std::size_t>(l)];
    }
    if (!in.in_file()) budget.release(classes * Generation<K>::kClassBytes);
    in.keys = {};
    in.counts = {};
    if (spiller) spiller->add(o, p, budget);
  }
  if (spiller) spiller->map(out);
  return out;
}

// One part of the next generation while a step builds it: an open-addressing table (linear
// probing, at most 3/4 full, doubling), filled in batches under its lock.
template <int K>
class PartTable {
 public:
  PartTable() = default;

  // Adds counts to keys; false when growing would exceed the budget (nothing is lost of
  // what was added before). Sets `overflow` when a count no longer fits in K limbs.
  bool add(const std::uint64_t* keys, const WideCount<K>* counts, int n, MemoryBudget& budget,
           bool& overflow) {
    std::lock_guard lock(mutex_);
    for (int i = 0; i < n; ++i) {
      if ((size() + 1) * 4 > capacity() * 3 && !grow(budget)) return false;
      place(keys[i], counts[i], overflow);
    }
    return true;
  }

  std::uint64_t size() const { return size_.load(std::memory_order_relaxed); }
  std::uint64_t capacity() const { return keys_.size(); }

  // Moves the classes into a dense part and frees the table.
  void drain(typename Generation<K>::Part& out, MemoryBudget& budget) {
    budget.charge(size_ * Generation<K>::kClassBytes);
    out.keys.reserve(size());
    out.counts.reserve(size());
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == kNoClass) continue;
      out.keys.push_back(keys_[i]);
      out.counts.push_back(counts_[i]);
    }
    budget.release(capacity() * Generation<K>::kClassBytes);
    keys_ = {};
    counts_ = {};
    size_ = 0;
  }

  void release(MemoryBudget& budget) {
    budget.release(capacity() * Generation<K>::kClassBytes);
    keys_ = {};
    counts_ = {};
    size_ = 0;
  }

 private:
  void place(std::uint64_t key, const WideCount<K>& count, bool& overflow) {
    const std::uint64_t mask = keys_.size() - 1;
    std::uint64_t i = class_hash(key) & mask;
    while (true) {
      if (keys_[i] == key) {
        if (counts_[i].add(count)) overflow = true;
        return;
      }
      if (keys_[i] == kNoClass) {
        keys_[i] = key;
        counts_[i] = count;
        size_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      i = (i + 1) & mask;
    }
  }

  bool grow(MemoryBudget& budget) {
    const std::uint64_t cap = keys_.empty() ? 64 : capacity() * 2;
    if (!budget.reserve(cap * Generation<K>::kClassBytes)) return false;
    std::vector<std::uint64_t> old_keys(cap, kNoClass);
    std::vector<WideCount<K>> old_counts(cap);
    old_keys.swap(keys_);
    old_counts.swap(counts_);
    size_ = 0;
    bool ignored = false;
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] != kNoClass) place(old_keys[i], old_counts[i], ignored);
    }
    budget.release(old_keys.size() * Generation<K>::kClassBytes);
    return true;
  }

  std::mutex mutex_;
  std::vector<std::uint64_t> keys_;
  std::vector<WideCount<K>> counts_;
  std::atomic<std::uint64_t> size_{0};  // read without the lock by progress reports
};

}  // namespace knightstour
