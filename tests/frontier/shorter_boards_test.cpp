// The rules a sweep runs when it counts shorter boards on its way (rules_for_every_board):
// never stricter than a board still to be counted, and each board's own once it is the last.
// (That the counts come out right is row_sweeps_test's.)
#include "frontier/sweep/shorter_boards.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "frontier/class/step_rule.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {
namespace {

ShorterBoards boards(int rows, int from, int to, bool closed) {
  ShorterBoards b;
  for (int n = from; n <= to; ++n) {
    if (closed && rows * n % 2 == 1) continue;
    b.rules.push_back(
        make_step_rules(Sweep(BoardShape{rows, n}), FrontierTarget{closed, std::nullopt}));
  }
  return b;
}

void expect_same(const StepRule& a, const StepRule& b, int k) {
  SCOPED_TRACE("step " + std::to_string(k));
  EXPECT_EQ(a.no_future, b.no_future);
  EXPECT_EQ(a.one_future, b.one_future);
  EXPECT_EQ(a.last, b.last);
  EXPECT_EQ(a.future_imbalance, b.future_imbalance);
  EXPECT_EQ(a.either_parity, b.either_parity);
  ASSERT_EQ(a.look_count, b.look_count);
  for (int i = 0; i < a.look_count; ++i) {
    EXPECT_EQ(a.looks[i].slots, b.looks[i].slots);
    EXPECT_EQ(a.looks[i].future, b.looks[i].future);
  }
}

// Whatever `board` lets through at this step, `meet` does: each of its prunings is one the
// board has too, or a stricter one.
void expect_no_stricter(const StepRule& meet, bool meet_odd, const StepRule& board, bool board_odd,
                        int k) {
  SCOPED_TRACE("step " + std::to_string(k));
  EXPECT_EQ(meet.no_future & ~board.no_future, 0U);
  EXPECT_EQ((meet.one_future | meet.no_future) & ~(board.one_future | board.no_future), 0U);
  const bool balances_as_board =
      (meet_odd == board_odd && meet.future_imbalance == board.future_imbalance) ||
      (meet.either_parity && meet_odd != board_odd &&
       meet.other_imbalance == board.future_imbalance);
  EXPECT_TRUE(balances_as_board);
  bool used[kMaxStepSlots] = {};
  for (int i = 0; i < meet.look_count; ++i) {
    bool found = false;
    for (int j = 0; j < board.look_count && !found; ++j) {
      if (used[j] || board.looks[j].future > meet.looks[i].future ||
          (board.looks[j].slots & ~meet.looks[i].slots) != 0) {
        continue;
      }
      used[j] = found = true;
    }
    EXPECT_TRUE(found) << "look " << i << " of the sweep has none as strict on the board";
  }
}

TEST(ShorterBoards, OneBoardRunsItsOwnRules) {
  const ShorterBoards one = boards(6, 8, 8, true);
  const StepRules meet = rules_for_every_board(one);
  ASSERT_EQ(meet.squares, 48);
  for (int k = 0; k < meet.squares; ++k) {
    expect_same(meet.steps[static_cast<std::size_t>(k)],
                one.rules[0].steps[static_cast<std::size_t>(k)], k);
  }
}

// Before each board's last step, the sweep is no stricter than that board; in the last
// column, where only the longest is left, it prunes as the longest alone does; and it prunes
// the last columns more than the boards' common rules far from their ends would.
TEST(ShorterBoards, NoStricterThanABoardLeftThenTheLongestsOwn) {
  for (const bool closed : {true, false}) {
    for (const int rows : {4, 5, 6}) {
      SCOPED_TRACE(std::to_string(rows) + (closed ? " rows, closed" : " rows, open"));
      const ShorterBoards b = boards(rows, rows, rows + 6, closed);
      const StepRules meet = rules_for_every_board(b);
      const StepRules& longest = b.rules.back();
      const StepRules& next = b.rules[b.rules.size() - 2];
      for (const StepRules& board : b.rules) {
        for (int k = 0; k < board.squares - 1; ++k) {
          expect_no_stricter(meet.steps[static_cast<std::size_t>(k)], meet.odd,
                             board.steps[static_cast<std::size_t>(k)], board.odd, k);
        }
      }
      for (int k = next.squares - 1; k < longest.squares; ++k) {
        expect_same(meet.steps[static_cast<std::size_t>(k)],
                    longest.steps[static_cast<std::size_t>(k)], k);
      }
      int looks = 0;
      for (const StepRule& r : meet.steps) looks += r.look_count;
      EXPECT_GT(looks, 0);
    }
  }
}

// Five rows: lengths of the two parities balance their colours differently, and the sweep
// lets a class through that balances as either does while a board of the other parity is
// left; one sweep serves them all.
TEST(ShorterBoards, EitherParityWhileTheOtherIsLeft) {
  const ShorterBoards b = boards(5, 5, 9, false);  // 5x9 (odd) longest, 5x8 the last even
  const StepRules meet = rules_for_every_board(b);
  ASSERT_TRUE(meet.odd);
  const StepRules& even = b.rules[3];
  ASSERT_EQ(even.squares, 40);
  for (int k = 0; k < meet.squares; ++k) {
    const StepRule& r = meet.steps[static_cast<std::size_t>(k)];
    EXPECT_EQ(r.either_parity, k < 39) << "step " << k;
    if (k < 39) {
      EXPECT_EQ(r.other_imbalance, even.steps[static_cast<std::size_t>(k)].future_imbalance);
    }
  }
  // Six rows: every length balances as the longest does.
  for (const StepRule& r : rules_for_every_board(boards(6, 6, 9, false)).steps) {
    EXPECT_FALSE(r.either_parity);
  }
}

TEST(ShorterBoards, RefusesBoardsThatCannotShareASweep) {
  ShorterBoards mixed = boards(5, 6, 8, true);
  mixed.rules.push_back(
      make_step_rules(Sweep(BoardShape{6, 9}), FrontierTarget{true, std::nullopt}));
  EXPECT_THROW(rules_for_every_board(mixed), std::logic_error);
  ShorterBoards kinds = boards(6, 6, 7, true);
  kinds.rules.push_back(
      make_step_rules(Sweep(BoardShape{6, 8}), FrontierTarget{false, std::nullopt}));
  EXPECT_THROW(rules_for_every_board(kinds), std::logic_error);
  EXPECT_THROW(rules_for_every_board(ShorterBoards{}), std::logic_error);
}

}  // namespace
}  // namespace knightstour
