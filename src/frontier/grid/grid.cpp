#include "frontier/grid/grid.hpp"

#include <optional>
#include <string>
#include <utility>

#include "frontier/grid/end_pair_sweeps.hpp"
#include "frontier/grid/grid_by_pass.hpp"
#include "frontier/grid/pinned_tails.hpp"
#include "frontier/grid/start_squares.hpp"

namespace knightstour::frontier_detail {

bool count_grid(const FrontierRequest& request, bool backward, JobSweeps& sweeps) {
  FrontierReport& report = sweeps.report();
  if (request.grid == GridMethod::end_pairs) {
    auto sweep_number = [&](int index, const Sweep& s, const FrontierTarget& target,
                            const std::string& what,
                            BigCount& out) { return sweeps.run(index, s, target, what, out); };
    return count_by_end_pairs(request, report, sweep_number);
  }
  const BoardShape shape = request.shape;
  const Sweep plain(shape);
  const auto squares = static_cast<std::uint64_t>(shape.squares());
  report.tours_by_start.assign(squares, BigCount{});
  report.closed_by_start.assign(squares, report.cycles * 2);
  if (backward) {
    const BackwardOutcome outcome =
        grid_by_pass(plain, sweeps.options(), sweeps.stop(), report, sweeps.progress());
    if (outcome != BackwardOutcome::fell_back) return outcome == BackwardOutcome::done;
  }
  // The closed sweep, an unpinned sweep that finished before the pass was given up, and the
  // tails.
  const std::vector<StartClass> classes = start_classes(shape);
  report.sweeps_planned = report.sweeps + static_cast<int>(classes.size());
  sweeps.progress().replan(report.sweeps_planned);
  auto sweep = [&](const Sweep& s, const FrontierTarget& target, const std::string& what,
                   BigCount& out, std::optional<FrontierState> from = std::nullopt) {
    return sweeps.next(s, target, what, out, std::move(from));
  };
  return count_by_pinned_tails(shape, classes, sweeps.options(), sweeps.stop(), sweeps.journal(),
                               report, sweep);
}

}  // namespace knightstour::frontier_detail
