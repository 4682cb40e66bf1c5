#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "knightstour/frontier/generation.hpp"
#include "knightstour/frontier/memory_budget.hpp"
#include "knightstour/frontier/spill.hpp"

namespace knightstour {

// Parts being written to one spill file; `finish` then points them into the file. Keys and
// counts of a part lie next to each other in the file.
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
    free_storage(part.keys);
    free_storage(part.counts);
    budget.release(n * Generation<K>::kClassBytes);
  }

  void finish(Generation<K>& g) {
    const auto file = file_.finish();
    for (const auto& pl : placed_) {
      auto& part = g.parts[pl.part];
      part.file = file;
      part.keys_at = pl.keys_at;
      part.counts_at = pl.counts_at;
      part.file_size = pl.n;
    }
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
  spiller.finish(g);
}

// The same classes with counts twice as wide; the budget then holds the wider generation's
// bytes in place of the narrower one's. A generation with parts in spill files is widened
// into a new spill file part by part when `area` can spill (else into memory).
template <int K>
Generation<2 * K> widened(Generation<K>&& g, MemoryBudget& budget, SpillArea* area = nullptr) {
  std::optional<PartSpiller<2 * K>> spiller;
  if (g.in_files() && area != nullptr && area->enabled()) spiller.emplace(*area);
  Generation<2 * K> out;
  out.parts.resize(g.parts.size());
  ClassBuffer<K> buffer(&budget);
  buffer.ensure();
  for (std::size_t p = 0; p < g.parts.size(); ++p) {
    auto& in = g.parts[p];
    auto& o = out.parts[p];
    const std::uint64_t classes = in.size();
    budget.charge(classes * Generation<2 * K>::kClassBytes);
    o.keys.resize(classes);
    in.read_keys(0, classes, o.keys.data());
    o.counts.resize(classes);
    for (std::size_t at = 0; at < classes; at += ClassBuffer<K>::kClasses) {
      const std::size_t n = std::min(ClassBuffer<K>::kClasses, classes - at);
      in.read_counts(at, n, buffer.counts.data());
      for (std::size_t i = 0; i < n; ++i)
        o.counts[at + i] = buffer.counts[i].template widened<2 * K>();
    }
    if (!in.in_file()) budget.release(classes * Generation<K>::kClassBytes);
    free_storage(in.keys);
    free_storage(in.counts);
    if (spiller) spiller->add(o, p, budget);
  }
  if (spiller) spiller->finish(out);
  return out;
}

}  // namespace knightstour
