#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

// What the enumerator found, for counting up to symmetry: every counted tour (one start's
// or all starts'), by last square, and what TourSymmetry said of each.
struct TourSymmetryCounts {
  std::uint64_t tours = 0;
  std::vector<std::uint64_t> tours_by_end;  // one per square
  std::uint64_t self_reverse = 0;           // tours some symmetry maps onto their reverse
  std::uint64_t cycle_stabilizers = 0;      // over the closed tours: symmetries fixing the cycle
};

// Essentially different tours: the counted tours in classes, each class counted once.
//
// H is the group of board symmetries that map counted tours onto counted tours: the whole
// group G (4 on a rectangle, 8 on a square) over all starts, the symmetries keeping the
// start in place for one start. Read forwards no tour is its own image under any symmetry
// but the identity, so every class of directed tours under H has |H| tours: tours / |H|.
//
// With reversal too (a tour and its image read from the other end are alike), a tour can be
// its own image: g(path[i]) == path[n-1-i]. Over all starts the classes are orbits of G x
// {forwards, backwards}, and by Burnside's lemma there are (tours + self-reverse) / 2|G|:
// a self-reverse tour's class is half as big. From one start s, a class holds the tours of
// one orbit that begin on s; it has 2|H| of them when the tour's last square is an image of
// s and it is not self-reverse, else |H|. So it is the number of essentially different
// undirected tours with an end on s or one of its images.
//
// Closed cycles up to G (whatever H): by Burnside, (sum over cycles of their stabilizer in
// G) / |G|; every cycle appears twice among one start's closed tours (two directions) and
// 2n times over all starts.
struct SymmetryClasses {
  int symmetries = 1;        // |H|
  int board_symmetries = 1;  // |G|
  std::uint64_t tours = 0;
  std::uint64_t tours_with_reversal = 0;
  std::uint64_t self_reverse = 0;
  std::optional<std::uint64_t> cycles;  // when closed cycles are counted
};

// `start` empty: over all starts. Throws std::logic_error when a count does not divide as
// the group says it must (a bug, never a user's error).
SymmetryClasses symmetry_classes(const Board& board, std::optional<int> start,
                                 const TourSymmetryCounts& found, bool count_cycles);

}  // namespace knightstour
