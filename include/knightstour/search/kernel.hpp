#pragma once

#include <cstdint>

#include "knightstour/board/bitboard.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

// The search kernel: explores every tour that extends one prefix and reports each to a
// visitor. It knows nothing of threads, files or logs; it allocates nothing per node.
//
// Visitor requirements:
//   static constexpr bool kNeedsPath;        // whether tour() wants the squares
//   void tour(int last, const std::uint8_t* path);  // path has board.squares() entries
//                                            // (nullptr when !kNeedsPath)
//   void tours(int last, std::uint64_t n);   // n tours that all end on `last` (count mode)
// Poll: bool operator()(std::uint64_t nodes) called about every `poll_interval` nodes with
// the kernel's node count so far; returning true stops the search.

struct KernelOptions {
  bool closed = false;                    // only tours whose last square is next to the start
  std::uint64_t poll_interval = 1 << 20;  // nodes between calls to the poll callback
};

template <class Visitor, class Poll>
class PrunedKernel {
 public:
  PrunedKernel(const Board& board, KernelOptions options, Visitor& visitor, Poll& poll)
      : neighbours_(board.neighbour_table()),
        squares_(board.squares()),
        closed_(options.closed),
        interval_(options.poll_interval == 0 ? 1 : options.poll_interval),
        countdown_(interval_),
        visitor_(visitor),
        poll_(poll) {}

  // Explores every tour extending `prefix` (length >= 1, described by `root`, as built by
  // make_state). Returns false when the poll callback stopped it.
  bool run(const SearchState& root, const std::uint8_t* prefix, int length) {
    for (int i = 0; i < length; ++i) path_[i] = prefix[i];
    stopped_ = false;
    if (root.remaining == 0) {  // the prefix is itself a whole open tour
      ++nodes_;
      report(root.head, 1);
      return true;
    }
    visit(root, length - 1);
    return !stopped_;
  }

  std::uint64_t nodes() const { return nodes_; }
  void reset_nodes() { nodes_ = 0; }

 private:
  void report(int last, std::uint64_t n) {
    if constexpr (Visitor::kNeedsPath) {
      path_[squares_ - 1] = static_cast<std::uint8_t>(last);
      visitor_.tour(last, path_);
    } else {
      visitor_.tours(last, n);
    }
  }

  bool tick() {
    if (--countdown_ == 0) {
      countdown_ = interval_;
      if (poll_(nodes_)) stopped_ = true;
    }
    return stopped_;
  }

  void visit(const SearchState& s, int depth) {
    visit_fields(s.free, s.degree.p0, s.degree.p1, s.degree.p2, s.degree.p3, s.end,
                 s.head | (s.remaining << 8), depth);
  }

  // The state travels in registers, not through memory: a child's fields written as 8-byte
  // stores and read back as 16-byte loads stalled store forwarding on every node. A node with
  // a single legal move (most of them, near the leaves) continues in the same call.
  void visit_fields(Bitboard free, Bitboard p0, Bitboard p1, Bitboard p2, Bitboard p3, Bitboard end,
                    int head_remaining, int depth) {
    SearchState s;
    s.free = free;
    s.degree = {p0, p1, p2, p3};
    s.end = end;
    s.head = head_remaining & 0xff;
    s.remaining = head_remaining >> 8;
    MoveSet m;
    while (true) {
      ++nodes_;
      if (tick()) return;
      if (s.remaining == 1) {  // the invariant guarantees the last square is next to the head
        report(closed_ ? s.head : lowest(s.free), 1);
        return;
      }
      m = legal_moves(neighbours_, s);
      if (s.remaining == 2) {  // every legal move completes a tour: count them without recursing
        for_each_square(m.moves, [&](int next) {
          ++nodes_;
          if constexpr (Visitor::kNeedsPath) path_[depth + 1] = static_cast<std::uint8_t>(next);
          report(closed_ ? next : lowest(s.free & ~bit(next)), 1);
        });
        return;
      }
      if (m.moves == 0 || without_lowest(m.moves) != 0) break;
      const int next = lowest(m.moves);  // forced: no branching, no call
      SearchState child;
      play(neighbours_, s, next, m.critical, child);
      s = child;
      ++depth;
      if constexpr (Visitor::kNeedsPath) path_[depth] = static_cast<std::uint8_t>(next);
    }
    Bitboard moves = m.moves;
    while (moves != 0) {
      const int next = lowest(moves);
      moves = without_lowest(moves);
      SearchState child;
      play(neighbours_, s, next, m.critical, child);
      if constexpr (Visitor::kNeedsPath) path_[depth + 1] = static_cast<std::uint8_t>(next);
      visit_fields(child.free, child.degree.p0, child.degree.p1, child.degree.p2, child.degree.p3,
                   child.end, child.head | (child.remaining << 8), depth + 1);
      if (stopped_) return;
    }
  }

  const Bitboard* neighbours_;
  int squares_;
  bool closed_;
  std::uint64_t interval_;
  std::uint64_t countdown_;
  Visitor& visitor_;
  Poll& poll_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  std::uint8_t path_[Board::kMaxSquares] = {};
};

// Plain backtracking as the textbook programs do it: every unvisited knight move is tried,
// in ascending square order, with no pruning at all. Same tours, far more nodes.
template <class Visitor, class Poll>
class NaiveKernel {
 public:
  NaiveKernel(const Board& board, KernelOptions options, Visitor& visitor, Poll& poll)
      : neighbours_(board.neighbour_table()),
        squares_(board.squares()),
        closed_(options.closed),
        interval_(options.poll_interval == 0 ? 1 : options.poll_interval),
        countdown_(interval_),
        visitor_(visitor),
        poll_(poll) {}

  bool run(Bitboard free, const std::uint8_t* prefix, int length) {
    for (int i = 0; i < length; ++i) path_[i] = prefix[i];
    start_ = prefix[0];
    stopped_ = false;
    visit(free, prefix[length - 1], length - 1);
    return !stopped_;
  }

  std::uint64_t nodes() const { return nodes_; }
  void reset_nodes() { nodes_ = 0; }

 private:
  void visit(Bitboard free, int head, int depth) {
    ++nodes_;
    if (--countdown_ == 0) {
      countdown_ = interval_;
      if (poll_(nodes_)) stopped_ = true;
    }
    if (stopped_) return;
    if (free == 0) {
      if (closed_ && (neighbours_[head] & bit(start_)) == 0) return;
      if constexpr (Visitor::kNeedsPath) {
        visitor_.tour(head, path_);
      } else {
        visitor_.tours(head, 1);
      }
      return;
    }
    Bitboard moves = neighbours_[head] & free;
    while (moves != 0) {
      const int next = lowest(moves);
      moves = without_lowest(moves);
      path_[depth + 1] = static_cast<std::uint8_t>(next);
      visit(free & ~bit(next), next, depth + 1);
      if (stopped_) return;
    }
  }

  const Bitboard* neighbours_;
  int squares_;
  bool closed_;
  std::uint64_t interval_;
  std::uint64_t countdown_;
  Visitor& visitor_;
  Poll& poll_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  int start_ = 0;
  std::uint8_t path_[Board::kMaxSquares] = {};
};

}  // namespace knightstour
