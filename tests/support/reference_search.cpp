#include "support/reference_search.hpp"

namespace knightstour::test {

namespace {

struct Reference {
  int rows, cols;
  bool closed;
  int start_row, start_col;
  std::vector<char> visited;
  ReferenceCounts out;

  void walk(int r, int c, int placed) {
    if (placed == rows * cols) {
      const int dr = r - start_row, dc = c - start_col;
      const bool next_to_start = (dr * dr + dc * dc) == 5;
      if (!closed || next_to_start) {
        ++out.tours;
        ++out.by_end[static_cast<std::size_t>(r * cols + c)];
      }
      return;
    }
    static const int kMoves[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (const auto& m : kMoves) {
      const int nr = r + m[0], nc = c + m[1];
      if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
      auto& seen = visited[static_cast<std::size_t>(nr * cols + nc)];
      if (seen) continue;
      seen = 1;
      walk(nr, nc, placed + 1);
      seen = 0;
    }
  }
};

}  // namespace

ReferenceCounts reference_count(int rows, int cols, int start_row, int start_col, bool closed) {
  Reference ref{rows,      cols,      closed,
                start_row, start_col, std::vector<char>(static_cast<std::size_t>(rows * cols), 0),
                {}};
  ref.out.by_end.assign(static_cast<std::size_t>(rows * cols), 0);
  ref.visited[static_cast<std::size_t>(start_row * cols + start_col)] = 1;
  ref.walk(start_row, start_col, 1);
  return ref.out;
}

}  // namespace knightstour::test
