#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "frontier/class/frontier_class.hpp"
#include "frontier/store/compact_classes.hpp"
#include "frontier/store/generation.hpp"
#include "frontier/store/memory_budget.hpp"
#include "frontier/store/spill.hpp"

namespace knightstour {

// Builds a part from classes added one at a time: compact, grouped by the type pattern of
// a class of `slots` slots (0: no grouping, for tests of keys that are not classes).
template <int K>
class PartWriter {
 public:
  explicit PartWriter(int slots) : slots_(slots) {}
  void add(std::uint64_t key, const WideCount<K>& count) {
    writer_.add(key, slots_ > 0 ? type_pattern(key, slots_) : 0, count);
  }
  std::uint64_t size() const { return writer_.size(); }
  ClassPart finish() {
    ClassPart part;
    part.classes = writer_.finish();
    return part;
  }
  // Scratch bytes the writer keeps between parts.
  std::uint64_t scratch_bytes() const { return writer_.scratch_bytes(); }

 private:
  int slots_;
  CompactWriter<K> writer_;
};

// A part of the given classes (tests and the first generation).
template <int K>
ClassPart part_of(const std::vector<std::uint64_t>& keys, const std::vector<WideCount<K>>& counts,
                  int slots = 0) {
  PartWriter<K> w(slots);
  for (std::size_t i = 0; i < keys.size(); ++i) w.add(keys[i], counts[i]);
  return w.finish();
}

// Parts being written to one spill file; `finish` then points them into the file.
class PartSpiller {
 public:
  explicit PartSpiller(SpillArea& area) : area_(area), file_(area.create()) {}

  // Moves an in-memory part's bytes to the file and releases them from the budget; its
  // index stays in memory.
  void add(ClassPart& part, std::size_t index, MemoryBudget& budget) {
    if (part.size() == 0 || part.in_file()) return;
    const std::uint64_t held = part.memory_bytes();
    const std::uint64_t n = part.class_bytes();
    const std::uint64_t at = file_.append(part.classes.bytes.data(), n);
    placed_.push_back({index, at});
    area_.count_written(n);
    free_storage(part.classes.bytes);
    budget.release(held - part.memory_bytes());
  }

  template <int K>
  void finish(Generation<K>& g) {
    const auto file = file_.finish();
    for (const auto& pl : placed_) {
      auto& part = g.parts[pl.part];
      part.file = file;
      part.file_at = pl.at;
    }
  }

 private:
  struct Placed {
    std::size_t part;
    std::uint64_t at;
  };
  SpillArea& area_;
  SpillFile file_;
  std::vector<Placed> placed_;
};

// Moves every in-memory part of g to a spill file.
template <int K>
void spill_parts(Generation<K>& g, SpillArea& area, MemoryBudget& budget) {
  PartSpiller spiller(area);
  for (std::size_t p = 0; p < g.parts.size(); ++p) spiller.add(g.parts[p], p, budget);
  spiller.finish(g);
}

// The same classes with counts twice as wide. A part's bytes hold a count in as many bytes
// as its value needs, so they stay as they are, in memory or in their file.
template <int K>
Generation<2 * K> widened(Generation<K>&& g) {
  Generation<2 * K> out;
  out.parts = std::move(g.parts);
  return out;
}

}  // namespace knightstour
