#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "knightstour/base/huge_chunks.hpp"

namespace knightstour {

// Scratch chunks kept from one budget to the next. A job runs its sweeps one after another
// (the closed sweep, the prefix, each pinned tail), each under a budget of its own; a chunk
// that one sweep faulted in is handed to the next instead of being unmapped and faulted and
// zeroed again (8% of 7x7 all starts' CPU when pinned sweeps counted it: docs/speed.md
// (grouping.md)). Each step now unmaps the idle chunks past what it expects to fill
// (StepPlanner::trim_idle, step_layout.hpp), so a sweep keeps as many as its first steps fill: 13
// pinned sweeps of 6x7 took 1.02-1.04x the wall for it (results/frontier/combiner.md). While the
// chunks sit here no budget counts them: a budget takes them in first thing
// (MemoryBudget::share_idle), and gives its idle ones back when it ends.
class IdleChunks {
 public:
  IdleChunks() = default;
  IdleChunks(const IdleChunks&) = delete;
  IdleChunks& operator=(const IdleChunks&) = delete;
  ~IdleChunks() { unmap(); }
  std::size_t size() const { return chunks_.size(); }

 private:
  friend class MemoryBudget;
  void unmap() {
    for (void* chunk : chunks_) free_chunk(chunk, bytes_);
    chunks_.clear();
  }
  std::vector<void*> chunks_;
  std::size_t bytes_ = 0;  // of each chunk
};

// Bytes the frontier counter may hold in classes and scratch. Reservations past the limit
// fail; the counter then stops or spills cleanly (StopReason::memory) instead of being
// killed by the system.
//
// The budget also keeps the scratch chunks a step's successor blocks use (take_chunk,
// give_chunk): a chunk given back stays mapped, still counted as used, for the next step to
// reuse without faulting and zeroing fresh pages again (8% of a 7x8 count's CPU), and is
// unmapped as soon as a reservation needs its room, or when a step expects to fill fewer
// (StepPlanner::trim_idle). So what the budget counts is what the process holds, idle chunks
// included, and room() is what could be reserved.
class MemoryBudget {
 public:
  // `memory_budget`: FrontierOptions::memory_budget, the bytes it lets be held (limit()).
  explicit MemoryBudget(std::uint64_t memory_budget)
      : limit_(memory_budget), chunk_bytes_(scratch_chunk_bytes(memory_budget)) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;
  ~MemoryBudget() {
    if (kept_ == nullptr) {
      drop_idle();
      return;
    }
    kept_->unmap();  // none, normally
    kept_->chunks_ = std::move(idle_);
    kept_->bytes_ = chunk_bytes_;
  }

  // Takes `kept`'s chunks in as idle ones, counted, as many as fit under the limit beside
  // what is held already (call it after charging a resumed sweep's classes); unmaps the rest
  // and any of another size. When this budget ends, its idle chunks go back to `kept`.
  // Before any thread takes a chunk.
  void share_idle(IdleChunks& kept) {
    kept_ = &kept;
    for (void* chunk : kept.chunks_) {
      if (kept.bytes_ == chunk_bytes_ && used() + chunk_bytes_ <= limit_) {
        charge(chunk_bytes_);
        idle_.push_back(chunk);
        idle_bytes_ += chunk_bytes_;
      } else {
        free_chunk(chunk, kept.bytes_);
      }
    }
    kept.chunks_.clear();
  }

  bool reserve(std::uint64_t bytes) {
    if (reserve_if_room(bytes)) return true;
    exceeded_ = true;
    return false;
  }
  // reserve() for memory that only saves time: a refusal is not the budget exceeded.
  bool reserve_if_room(std::uint64_t bytes) {
    for (;;) {
      const auto now = used_.fetch_add(bytes) + bytes;
      if (now <= limit_) {
        note_peak(now);
        return true;
      }
      used_.fetch_sub(bytes);
      if (!free_one_idle()) return false;
    }
  }
  void release(std::uint64_t bytes) { used_.fetch_sub(bytes); }
  // Counts memory that must be held whatever the limit (short-lived copies).
  void charge(std::uint64_t bytes) { note_peak(used_.fetch_add(bytes) + bytes); }
  std::uint64_t used() const { return used_.load(); }
  std::uint64_t peak() const { return peak_.load(); }
  std::uint64_t limit() const { return limit_; }
  // What could be reserved: idle chunks are freed for it.
  std::uint64_t room() const {
    const std::uint64_t busy = used() - std::min(used(), idle_bytes());
    return limit_ - std::min(limit_, busy);
  }
  bool exceeded() const { return exceeded_.load(); }
  // Forgets a refusal once the caller has made room some other way (spilling to disk).
  void clear_exceeded() { exceeded_ = false; }

  // Bytes of every scratch chunk under this budget (scratch_chunk_bytes of the limit).
  std::size_t chunk_bytes() const { return chunk_bytes_; }
  // A scratch chunk, reserved: an idle one when there is one, else a new one; nullptr when
  // it does not fit the budget.
  void* take_chunk() {
    {
      const std::lock_guard<std::mutex> lock(idle_mutex_);
      if (!idle_.empty()) {
        void* chunk = idle_.back();
        idle_.pop_back();
        idle_bytes_ -= chunk_bytes_;
        return chunk;
      }
    }
    if (!reserve(chunk_bytes_)) return nullptr;
    try {
      return allocate_chunk(chunk_bytes_);
    } catch (...) {
      release(chunk_bytes_);
      throw;
    }
  }
  // Gives back a chunk of take_chunk: kept for reuse and still counted until a reservation
  // needs its room or drop_idle.
  void give_chunk(void* chunk) {
    const std::lock_guard<std::mutex> lock(idle_mutex_);
    idle_.push_back(chunk);
    idle_bytes_ += chunk_bytes_;
  }
  // Bytes of idle chunks (counted in used()).
  std::uint64_t idle_bytes() const { return idle_bytes_.load(); }
  // Unmaps every idle chunk and releases its bytes.
  void drop_idle() { trim_idle(0); }
  // Unmaps idle chunks until at most `keep` bytes of them are left.
  void trim_idle(std::uint64_t keep) {
    while (idle_bytes() > keep && free_one_idle()) {
    }
  }

 private:
  bool free_one_idle() {
    void* chunk = nullptr;
    {
      const std::lock_guard<std::mutex> lock(idle_mutex_);
      if (idle_.empty()) return false;
      chunk = idle_.back();
      idle_.pop_back();
      idle_bytes_ -= chunk_bytes_;
    }
    free_chunk(chunk, chunk_bytes_);
    release(chunk_bytes_);
    return true;
  }
  void note_peak(std::uint64_t now) {
    auto peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }

  std::uint64_t limit_;
  std::atomic<std::uint64_t> used_{0};
  std::atomic<std::uint64_t> peak_{0};
  std::atomic<bool> exceeded_{false};
  std::size_t chunk_bytes_;
  std::mutex idle_mutex_;
  std::vector<void*> idle_;  // chunks given back, each counted in used_
  std::atomic<std::uint64_t> idle_bytes_{0};
  IdleChunks* kept_ = nullptr;  // where idle chunks go at the end (share_idle)
};

}  // namespace knightstour
