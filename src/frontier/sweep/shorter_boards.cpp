#include "frontier/sweep/shorter_boards.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace knightstour {

namespace {

[[noreturn]] void differ(int k, const char* what) {
  throw std::logic_error("boards of one sweep differ at step " + std::to_string(k) + " in " + what +
                         ": they cannot share it");
}

// The rule `a` keeps where `b` has the same or a stricter one, so that whatever b lets through
// a does too (a's board has an odd number of squares when a_odd, b's when b_odd). What does
// not prune (the moves, T's role, the colours of the slots) must be the same.
void meet_into(StepRule& a, bool a_odd, const StepRule& b, bool b_odd, int k) {
  if (a.candidate_count != b.candidate_count ||
      !std::equal(a.candidates, a.candidates + a.candidate_count, b.candidates) ||
      a.has_t != b.has_t || a.t_required != b.t_required || a.t_only_first != b.t_only_first ||
      a.t_never != b.t_never) {
    differ(k, "their moves");
  }
  if (a.fold_mirror != b.fold_mirror) differ(k, "their mirror fold");
  if (a.colour0 != b.colour0 || a.colour1 != b.colour1) differ(k, "the colours of their slots");
  // The colour balance: a class balanced as either board is passes. Boards of one parity of
  // squares have the same squares still to come up to their colours (the columns between
  // them hold as many of each colour); those of the other parity are the other balance.
  if (b_odd == a_odd) {
    if (b.future_imbalance != a.future_imbalance) differ(k, "the colours still to come");
  } else if (!a.either_parity) {
    a.either_parity = true;
    a.other_imbalance = b.future_imbalance;
  } else if (a.other_imbalance != b.future_imbalance) {
    differ(k, "the colours still to come");
  }
  a.last = a.last && b.last;
  // "Must be done" where both say so; "must not be free" where both say it or more.
  const std::uint32_t no_future = a.no_future & b.no_future;
  a.one_future = (a.one_future | a.no_future) & (b.one_future | b.no_future) & ~no_future;
  a.no_future = no_future;
  // A look of a is kept when a look of b of no more squares ahead reaches only slots a's
  // reaches: b's look can give no more edges than a's, so a class b keeps is short of an
  // edge at a's look only where it is at b's. Each of b's looks stands for one of a's (T's
  // edges are counted over the looks a class is one short at).
  bool used[kMaxStepSlots] = {};
  int kept = 0;
  for (int i = 0; i < a.look_count; ++i) {
    const StepRule::Look look = a.looks[i];
    for (int j = 0; j < b.look_count; ++j) {
      if (used[j] || b.looks[j].future > look.future || (b.looks[j].slots & ~look.slots) != 0) {
        continue;
      }
      used[j] = true;
      a.looks[kept++] = look;
      break;
    }
  }
  a.look_count = kept;
}

}  // namespace

StepRules rules_for_every_board(const ShorterBoards& boards) {
  if (boards.rules.empty()) throw std::logic_error("a sweep of every board needs a board");
  const StepRules& longest = boards.rules.back();
  if (longest.stopped) throw std::logic_error("the longest board's rules were not all made");
  StepRules rules = longest;  // met below with every shorter board
  for (std::size_t i = 0; i + 1 < boards.rules.size(); ++i) {
    const StepRules& board = boards.rules[i];
    if (board.stopped || board.width != longest.width || board.squares > longest.squares) {
      throw std::logic_error("a board that cannot share the sweep of every length");
    }
    // Its last step is run aside: the sweep's steps before it must let its classes through.
    for (int k = 0; k < board.squares - 1; ++k) {
      meet_into(rules.steps[static_cast<std::size_t>(k)], longest.odd,
                board.steps[static_cast<std::size_t>(k)], board.odd, k);
    }
  }
  return rules;
}

}  // namespace knightstour
