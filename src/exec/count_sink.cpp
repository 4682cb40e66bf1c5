#include "knightstour/exec/count_sink.hpp"

#include <array>
#include <chrono>

#include "knightstour/search/prefix_search.hpp"

namespace knightstour {

namespace {

// What the visitors found below one searched prefix.
struct Tally {
  std::uint64_t total = 0;
  std::array<std::uint64_t, Board::kMaxSquares> by_end{};
  std::uint64_t self_reverse = 0;
  std::uint64_t cycle_stabilizers = 0;

  void add(int last, std::uint64_t n) {
    total += n;
    by_end[static_cast<unsigned>(last)] += n;
  }
};

struct CountVisitor {
  static constexpr bool kNeedsPath = false;
  Tally tally;

  void tour(int, const std::uint8_t*) {}
  void tours(int last, std::uint64_t n) { tally.add(last, n); }
};

// Counts as CountVisitor does, and looks at each tour's symmetries.
struct SymmetryVisitor {
  static constexpr bool kNeedsPath = true;
  Tally tally;
  const Board& board;
  const TourSymmetry& symmetry;

  SymmetryVisitor(const Board& b, const TourSymmetry& s) : board(b), symmetry(s) {}
  void tours(int, std::uint64_t) {}
  void tour(int last, const std::uint8_t* path) {
    tally.add(last, 1);
    if (symmetry.reverse_symmetric(path)) ++tally.self_reverse;
    if (board.adjacent(last, path[0])) {
      tally.cycle_stabilizers += static_cast<std::uint64_t>(symmetry.cycle_stabilizer(path));
    }
  }
};

// The counts of the prefix `id` whose tours are the searched tours mapped through g.
PrefixResult mapped(const Tally& found, const Symmetry& g, const Board& board, std::size_t id,
                    int start) {
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
  // g maps a tour fixed by (a symmetry h, walked backwards) to one fixed by g h g^-1, and a
  // cycle's stabilizer to its conjugate: both counts carry over unchanged.
  out.self_reverse = found.self_reverse;
  out.cycle_stabilizers = found.cycle_stabilizers;
  return out;
}

template <class Visitor>
bool count_item(const WorkItem& item, ItemContext& context, Visitor& visitor) {
  const Plan& plan = context.plan;
  const auto t0 = std::chrono::steady_clock::now();
  KernelPoll poll(context.stop, visitor.tally.total, item.members.size());
  std::uint64_t nodes = 0;
  if (!search_prefix(plan.board(), plan.mode(), plan.prefixes()[item.searched],
                     context.poll_interval, visitor, poll, nodes)) {
    return false;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<PrefixResult> results;
  for (const auto& member : item.members) {
    results.push_back(mapped(visitor.tally, plan.group()[member.symmetry], plan.board(), member.id,
                             plan.prefixes()[member.id][0]));
  }
  results[item.charged()].nodes = nodes;
  results[item.charged()].seconds = seconds;
  context.recorder.record(std::move(results));
  return true;
}

}  // namespace

bool CountSink::run(const WorkItem& item, ItemContext& context) {
  if (!symmetry_) {
    CountVisitor visitor;
    return count_item(item, context, visitor);
  }
  SymmetryVisitor visitor(context.plan.board(), *symmetry_);
  return count_item(item, context, visitor);
}

}  // namespace knightstour
