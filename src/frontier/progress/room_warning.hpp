#pragma once

// A warning, once a sweep, that it is projected to outgrow the memory budget and the spill
// disk together. Such a count spills for hours and then stops with a full disk (8x8 open on
// a machine with 77 GB free: docs/speed.md (8x8-open-folded-steps.md)); said
// early, the user can give --spill-dir a larger disk, or stop and ask `estimate`.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <vector>

#include "knightstour/base/units.hpp"
#include "knightstour/frontier/sweep_outlook.hpp"

namespace knightstour::frontier_detail {

// Checks after step k (zero-based) at the end of every column from the fourth on, where the
// projection has settled (sweep_outlook: 90% within 1.9x from there), and warns at most once.
// `bytes_per_class`: of the generation after step k, at rest (compact, as spilled).
// `sizes`: the classes after each step so far, over all ranks; `share`: this rank's part of
// them (1 / ranks).
class DiskRoomWarning {
 public:
  // Each check projects the rest of the sweep (time linear in its length), so past the 64th
  // column only the columns that are powers of two or sixteenths of the board check: a few
  // dozen checks in all, whatever the board's length.
  bool due(int k, int width, int steps) const {
    if (warned_ || (k + 1) % width != 0 || k + 1 < 4 * width || k + 1 >= steps) return false;
    const int column = (k + 1) / width;
    const int columns = steps / width;
    return column < 64 || std::has_single_bit(static_cast<unsigned>(column)) ||
           column % std::max(1, columns / 16) == 0;
  }
  void check(const std::vector<std::uint64_t>& sizes, int k, int width, int steps,
             double bytes_per_class, std::uint64_t budget, const std::filesystem::path& spill_dir,
             double share) {
    if (sizes.empty()) return;
    std::error_code error;
    const auto space = std::filesystem::space(spill_dir, error);
    if (error) return;
    const SweepOutlook outlook = sweep_outlook(sizes, k + 1, steps, width, sizes.back());
    const double room = static_cast<double>(budget) + static_cast<double>(space.available);
    const double peak = outlook.peak_classes * share;  // this rank's classes
    const double need = kPeakStepGenerations * peak * bytes_per_class;
    spdlog::debug("step {}: projected peak ~{:.3g} classes; the widest step needs ~{}, room {}",
                  k + 1, peak, size_text(static_cast<std::uint64_t>(need)),
                  size_text(static_cast<std::uint64_t>(room)));
    if (need <= room) return;
    warned_ = true;
    spdlog::warn(
        "this sweep is projected to peak at ~{:.2g} classes; its widest step would need ~{} "
        "(two generations and their successors; the projection can be off by 2x), more than "
        "the memory budget ({}) and the free disk in {} ({}) hold together: the count will "
        "likely stop with a full disk. $spill_dir can put it on a larger disk; `knightstour "
        "estimate` projects a count before it runs",
        peak, size_text(static_cast<std::uint64_t>(need)), size_text(budget), spill_dir.string(),
        size_text(space.available));
  }

 private:
  bool warned_ = false;
};

}  // namespace knightstour::frontier_detail
