#include "knightstour/search/search_state.hpp"

namespace knightstour {

std::optional<SearchState> make_state(const Board& board, std::span<const std::uint8_t> path,
                                      bool closed) {
  SearchState s;
  Bitboard visited = 0;
  for (auto square : path) visited |= bit(square);
  s.free = board.all() & ~visited;
  const int start = path.front();
  if (closed) s.free |= bit(start);
  s.head = path.back();
  s.remaining = popcount(s.free);
  if (s.remaining == 0) return s;  // the path is already a whole open tour

  // Colours alternate along a tour: the next square has the other colour from the head.
  const int head_colour = board.colour(s.head);
  const int other = popcount(s.free & board.colour_squares(1 - head_colour));
  const int same = popcount(s.free & board.colour_squares(head_colour));
  if (other != (s.remaining + 1) / 2 || same != s.remaining / 2) return std::nullopt;

  Bitboard ends = 0;
  for_each_square(s.free, [&](int f) {
    const Bitboard free_neighbours = board.neighbours(f) & s.free;
    const int degree = popcount(free_neighbours);
    for (int k = 0; k < 4; ++k) {
      if ((degree >> k) & 1) {
        Bitboard* plane[4] = {&s.degree.p0, &s.degree.p1, &s.degree.p2, &s.degree.p3};
        *plane[k] |= bit(f);
      }
    }
    const int links = degree + (board.adjacent(f, s.head) ? 1 : 0);
    if (links == 0) ends = ~Bitboard{0};  // marks the state dead below
    if (links == 1) ends |= bit(f);
  });
  if (ends == ~Bitboard{0}) return std::nullopt;

  if (closed) {
    if ((ends & ~bit(start)) != 0) return std::nullopt;
    s.end = bit(start);
    return s;
  }
  if (popcount(ends) > 1) return std::nullopt;
  // The last square has the head's colour when an even number of squares is left.
  if (ends != 0 && board.colour(lowest(ends)) != (head_colour ^ (s.remaining & 1))) {
    return std::nullopt;
  }
  s.end = ends;
  return s;
}

}  // namespace knightstour
