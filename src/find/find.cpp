#include "knightstour/find/find.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/board/tour_check.hpp"
#include "knightstour/find/exact_tour_search.hpp"
#include "knightstour/find/heuristic_tour.hpp"
#include "knightstour/find/tour_theory.hpp"

namespace knightstour {

namespace {

using Clock = std::chrono::steady_clock;

void checked(FindResult& r, const FindRequest& q) {
  TourChecker checker(q.shape, q.closed);
  if (auto why = checker.problem(r.tour))
    throw std::logic_error("find produced a wrong tour: " + *why);
  if (r.tour.front() != q.start)
    throw std::logic_error("find produced a tour from the wrong square");
}

// --method backtrack: the textbook search, capped by --max-nodes checks.
void by_textbook_backtracking(const FindRequest& q, StopControl* stop, FindResult& r) {
  const auto cap = q.max_nodes ? q.max_nodes : kDefaultBacktrackChecks;
  auto b = textbook_backtrack(q.shape, q.start, q.closed, q.order, cap, stop);
  r.work = b.checks;
  const std::string checks =
      with_commas(b.checks) + " checks, " + with_commas(b.placements) + " placements";
  if (b.outcome == BacktrackResult::Outcome::found) {
    r.outcome = FindResult::Outcome::found;
    r.tour = std::move(b.tour);
    r.how = "textbook backtracking, move order " + q.order.name + ": " + checks;
  } else if (b.outcome == BacktrackResult::Outcome::none) {
    r.outcome = FindResult::Outcome::impossible;
    r.how = "textbook backtracking tried every path (" + checks + ") and found none";
  } else {
    r.how = "textbook backtracking, move order " + q.order.name + ", stopped after " + checks +
            " without a tour (the cap is --max-nodes)";
  }
}

// After Warnsdorff's rule failed (`heuristic` says how): the exact search. Backtracking's
// running time is heavy-tailed: one early wrong turn can cost hours while another tie-break
// order finds a tour at once. So the exact search restarts with fresh tie-breaks and a
// budget that doubles every other attempt. A run that finishes within its budget without a
// tour has explored the whole tree: a proof, whatever its order.
void by_exact_search(const FindRequest& q, StopControl* stop, const std::string& heuristic,
                     FindResult& r) {
  const std::uint64_t cap = q.max_nodes ? q.max_nodes : kDefaultExactNodes;
  std::uint64_t total = 0;
  int attempt = 0;
  ExactSearchResult exact;
  while (total < cap) {
    ExactSearchOptions e;
    e.closed = q.closed;
    e.seed = q.seed * 1'000'003 + static_cast<std::uint64_t>(attempt) + 1;
    e.stop = stop;
    e.max_nodes = std::min(cap - total, std::uint64_t{10'000} << std::min(attempt / 2, 40));
    exact = exact_tour_search(q.shape, q.start, e);
    total += exact.nodes;
    ++attempt;
    if (exact.outcome != ExactSearchResult::Outcome::stopped) break;
    if (stop && stop->stopped()) break;
  }
  r.work = total;
  const std::string nodes = with_commas(total) + " nodes";
  if (exact.outcome == ExactSearchResult::Outcome::found) {
    r.outcome = FindResult::Outcome::found;
    r.tour = std::move(exact.tour);
    r.how = "exact search with Warnsdorff ordering after Warnsdorff's rule failed (" + nodes +
            ", " + std::to_string(attempt) + " restart" + (attempt == 1 ? "" : "s") + ")";
  } else if (exact.outcome == ExactSearchResult::Outcome::none) {
    r.outcome = FindResult::Outcome::impossible;
    r.how = "an exhaustive search (" + with_commas(exact.nodes) +
            " nodes, with pruning that provably loses no tour) found none";
  } else {
    r.how = heuristic + "; the exact search stopped after " + nodes +
            " (the cap is --max-nodes); no tour is ruled out";
  }
}

}  // namespace

std::vector<std::string> check(const FindRequest& q) {
  std::vector<std::string> refusals;
  if (q.shape.squares() > kMaxFindSquares) {
    refusals.push_back("board " + q.shape.name() + " has more than " +
                       with_commas(static_cast<std::uint64_t>(kMaxFindSquares)) + " squares");
  }
  if (q.start >= q.shape.squares()) {
    refusals.push_back("the start square is not on the board " + q.shape.name());
  }
  return refusals;
}

FindResult find_tour(const FindRequest& q, StopControl* stop) {
  refuse_first(check(q));
  const auto t0 = Clock::now();
  FindResult r;
  auto done = [&]() -> FindResult& {
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (r.outcome == FindResult::Outcome::found) checked(r, q);
    return r;
  };
  if (auto reason = no_tour_reason(q.shape, q.start, q.closed)) {
    r.outcome = FindResult::Outcome::impossible;
    r.how = *reason;
    return done();
  }
  if (q.method == FindMethod::backtrack) {
    by_textbook_backtracking(q, stop, r);
    return done();
  }
  // Warnsdorff's rule with repair: fast on every size; then an exact search, which is also
  // the proof when no tour exists from this start.
  HeuristicOptions h;
  h.closed = q.closed;
  h.seed = q.seed;
  h.stop = stop;
  // Small boards go to the exact search soon: it decides them for certain.
  if (q.shape.squares() <= 256) {
    h.attempts = 4;
    h.max_rotations = 20'000;
  }
  auto found = heuristic_tour(q.shape, q.start, h);
  if (found.found) {
    r.outcome = FindResult::Outcome::found;
    r.tour = std::move(found.tour);
    r.how = found.how;
    return done();
  }
  by_exact_search(q, stop, found.how, r);
  return done();
}

}  // namespace knightstour
