#include "knightstour/count/ranked_journal.hpp"

#include <spdlog/spdlog.h>

namespace knightstour {

std::optional<BigCount> RankedJournal::finished(int sweep) {
  auto count = mine_.finished(sweep);
  if (ranks_.any_bits(count ? 0u : 1u) != 0) return std::nullopt;
  return count;
}

bool RankedJournal::has_saved(int sweep) {
  const std::optional<int> step = mine_.saved_step(sweep);
  // Steps + 1 (0: no checkpoint); the least of them is the greatest of their complements.
  const std::uint64_t mine = step ? static_cast<std::uint64_t>(*step) + 1 : 0;
  const std::uint64_t most = ranks_.max(mine);
  const std::uint64_t least = ~ranks_.max(~mine);
  if (least != most && ranks_.rank() == 0) {
    spdlog::warn(
        "the ranks' checkpoints of sweep {} are at different steps (a rank stopped "
        "while they were saving): the sweep starts again",
        sweep + 1);
  }
  return least != 0 && least == most;
}

std::optional<FrontierState> RankedJournal::saved(int sweep) {
  if (!has_saved(sweep)) return std::nullopt;
  return mine_.saved(sweep);
}

void RankedJournal::after_step(int sweep, const FrontierState& state) {
  if (ranks_.any_bits(mine_.save_due() ? 1u : 0u) != 0) mine_.save(sweep, state);
}

}  // namespace knightstour
