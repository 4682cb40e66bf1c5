#include "frontier/grid/kept_generations.hpp"

#include <algorithm>
#include <vector>

namespace knightstour {

bool KeptGenerations::keep(const FrontierState& state) {
  if (gave_up_) return false;
  const int k = state.next_step;
  limbs_ = std::max(limbs_, limbs_of(state.classes));
  if (k < from_ && k == static_cast<int>(held_.size())) {
    held_.push_back(0);  // the pass does not reach it
    kept_.emplace_back();
    return true;
  }
  const std::uint64_t bytes = memory_bytes_of(state.classes);
  if (!columns_only_ && bytes_ + bytes > limit_) {
    // From now on only the columns' first generations; those kept so far are dropped.
    columns_only_ = true;
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      if (held_[i] == 0 || column_start(static_cast<int>(i))) continue;
      bytes_ -= memory_bytes_of(kept_[i]);
      kept_[i] = AnyGeneration{};
      held_[i] = 0;
    }
  }
  const bool wanted = !columns_only_ || column_start(k);
  spilled_ = in_files(state.classes);
  if (spilled_ || k != static_cast<int>(held_.size()) || (wanted && bytes_ + bytes > limit_)) {
    gave_up_ = true;
    std::vector<AnyGeneration>().swap(kept_);
    std::vector<char>().swap(held_);
    bytes_ = 0;
    return false;
  }
  held_.push_back(wanted ? 1 : 0);
  kept_.push_back(wanted ? state.classes : AnyGeneration{});
  if (wanted) bytes_ += bytes;
  return true;
}

}  // namespace knightstour
