#include "knightstour/exec/count_sink.hpp"

#include <array>
#include <chrono>

#include "knightstour/search/prefix_search.hpp"

namespace knightstour {

namespace {

struct CountVisitor {
  static constexpr bool kNeedsPath = false;
  std::uint64_t total = 0;
  std::array<std::uint64_t, Board::kMaxSquares> by_end{};

  void tour(int, const std::uint8_t*) {}
  void tours(int last, std::uint64_t n) {
    total += n;
    by_end[static_cast<unsigned>(last)] += n;
  }
};

// The counts of the prefix `id` whose tours are the searched tours mapped through g.
PrefixResult mapped(const CountVisitor& found, const Symmetry& g, const Board& board,
                    std::size_t id, int start) {
  PrefixResult out;
  out.id = id;
  out.tours = found.total;
  out.by_end.assign(static_cast<std::size_t>(board.squares()), 0);
  for (int e = 0; e < board.squares(); ++e) {
    out.by_end[static_cast<std::size_t>(g(e))] = found.by_end[static_cast<std::size_t>(e)];
  }
  for (int e = 0; e < board.squares(); ++e) {
    if (board.adjacent(e, start)) out.closed += out.by_end[static_cast<std::size_t>(e)];
  }
  return out;
}

}  // namespace

bool CountSink::run(const WorkItem& item, ItemContext& context) {
  const Plan& plan = context.plan;
  const auto t0 = std::chrono::steady_clock::now();
  CountVisitor visitor;
  KernelPoll poll(context.stop, visitor.total, item.members.size());
  std::uint64_t nodes = 0;
  if (!search_prefix(plan.board(), plan.mode(), plan.prefixes()[item.searched],
                     context.poll_interval, visitor, poll, nodes)) {
    return false;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<PrefixResult> results;
  for (const auto& member : item.members) {
    results.push_back(mapped(visitor, plan.group()[member.symmetry], plan.board(), member.id,
                             plan.prefixes()[member.id][0]));
  }
  results[item.charged()].nodes = nodes;
  results[item.charged()].seconds = seconds;
  context.recorder.record(std::move(results));
  return true;
}

}  // namespace knightstour
