#include "knightstour/frontier_run/ranked_journal.hpp"

#include <spdlog/spdlog.h>

namespace knightstour {

std::optional<BigCount> RankedJournal::finished(int sweep) {
  auto count = mine_.finished(sweep);
  if (ranks_.any_bits(count ? 0u : 1u) != 0) return std::nullopt;
  return count;
}

std::optional<int> RankedJournal::agreed_step(int sweep) {
  // Steps + 1 (0: no checkpoint), so that max over the ranks compares them.
  auto code = [](std::optional<int> step) -> std::uint64_t {
    return step ? static_cast<std::uint64_t>(*step) + 1 : 0;
  };
  const std::uint64_t committed = code(mine_.saved_step(sweep));
  const std::uint64_t staged = code(mine_.staged_step(sweep));
  auto everyone_holds = [&](std::uint64_t c) {
    const bool mine = c != 0 && (committed == c || staged == c);
    return ranks_.any_bits(mine ? 0u : 1u) == 0;
  };
  std::optional<int> step;
  const std::uint64_t newest = ranks_.max(std::max(committed, staged));
  const std::uint64_t oldest = ~ranks_.max(~committed);  // the least committed step
  if (newest != 0 && everyone_holds(newest)) {
    step = static_cast<int>(newest - 1);
  } else if (oldest != 0 && everyone_holds(oldest)) {
    step = static_cast<int>(oldest - 1);
  } else if (newest != 0 && ranks_.rank() == 0) {
    spdlog::warn(
        "the ranks' checkpoints of sweep {} are at steps no rank shares (were some of its "
        "files removed?): the sweep starts again",
        sweep);
  }
  mine_.keep_step(sweep, step);
  return step;
}

bool RankedJournal::has_saved(int sweep) { return agreed_step(sweep).has_value(); }

bool RankedJournal::saved(int sweep, FrontierState& into) {
  return has_saved(sweep) && mine_.saved(sweep, into);
}

void RankedJournal::after_step(int sweep, const FrontierState& state) {
  if (ranks_.any_bits(mine_.save_due() ? 1u : 0u) == 0) return;
  save_together(sweep, state);
}

std::optional<int> RankedJournal::keep(int sweep, const FrontierState& state) {
  const bool behind = mine_.saved_step(sweep) != next_step_of(state);
  if (ranks_.any_bits(behind ? 1u : 0u) != 0) save_together(sweep, state);
  return mine_.saved_step(sweep);
}

void RankedJournal::save_together(int sweep, const FrontierState& state) {
  mine_.stage(sweep, state);
  ranks_.any_bits(0);  // returns on no rank before every rank has staged: the step is whole
  mine_.commit_staged(sweep);
}

}  // namespace knightstour
