#include "knightstour/find/exact_tour_search.hpp"

#include <algorithm>
#include <random>

#include "knightstour/board/knight_geometry.hpp"

namespace knightstour {

namespace {

constexpr std::int64_t kNone = -1;

class ExactSearch {
 public:
  ExactSearch(const BoardShape& shape, std::uint32_t start, const ExactSearchOptions& options)
      : rows_(shape.rows),
        cols_(shape.cols),
        geometry_(shape),
        n_(static_cast<std::uint32_t>(shape.squares())),
        start_(start),
        closed_(options.closed),
        options_(options),
        free_(n_, 1),
        degree_(n_, 0),
        tie_(n_, 0) {
    // On a 4 x n board the two outer lines form an independent set as large as the inner
    // lines (tour_theory.hpp): the rest of an open path can hold at most every other square
    // from it. Checking that count cuts the search there by orders of magnitude.
    if (!options.closed && std::min(rows_, cols_) == 4) {
      outer_.assign(n_, 0);
      for (std::uint32_t v = 0; v < n_; ++v) {
        const int line = rows_ == 4 ? geometry_.row(v) : geometry_.col(v);
        outer_[v] = (line == 0 || line == 3) ? 1 : 0;
      }
    }
    std::mt19937_64 rng(options.seed);
    for (std::uint32_t v = 0; v < n_; ++v) {
      // Ties go to the square nearest the centre (seed 0), or at random (find restarts with
      // seeds 1, 2, ...).
      tie_[v] = options.seed == 0 ? -geometry_.from_centre2(v)
                                  : std::uniform_real_distribution<double>(0, 1)(rng);
    }
  }

  ExactSearchResult run() {
    ExactSearchResult result;
    if (!closed_) free_[start_] = 0;  // closed: the start stays free as the required last square
    remaining_ = closed_ ? n_ : n_ - 1;
    for (std::uint32_t v = 0; v < n_ && !outer_.empty(); ++v) free_outer_ += free_[v] & outer_[v];
    path_.push_back(start_);
    if (remaining_ == 0) {
      result.outcome = ExactSearchResult::Outcome::found;
      result.tour = path_;
      return result;
    }
    // Colours alternate along a tour: the free squares must split between the colours as
    // the rest of the path will visit them.
    std::uint32_t other_colour = 0;
    const auto colour = [&](std::uint32_t v) { return (geometry_.row(v) + geometry_.col(v)) & 1; };
    for (std::uint32_t v = 0; v < n_; ++v) other_colour += free_[v] && colour(v) != colour(start_);
    if (other_colour != (remaining_ + 1) / 2) return none(result);
    std::uint32_t nb[8];
    for (std::uint32_t v = 0; v < n_; ++v) {
      if (!free_[v]) continue;
      const int k = neighbours(v, nb);
      for (int i = 0; i < k; ++i) degree_[v] += free_[nb[i]];
    }
    // The root's possible last square (the invariant of search_state.hpp).
    end_ = closed_ ? static_cast<std::int64_t>(start_) : kNone;
    for (std::uint32_t v = 0; v < n_; ++v) {
      if (!free_[v] || (closed_ && v == start_)) continue;
      const int links = degree_[v] + (adjacent(v, start_) ? 1 : 0);
      if (links == 0 || (links == 1 && end_ != kNone)) return none(result);
      if (links == 1) end_ = v;
    }
    if (!expand()) return none(result);
    while (!frames_.empty()) {
      if (options_.max_nodes && nodes_ >= options_.max_nodes) break;
      if ((nodes_ & 0xFFFF) == 0 && options_.stop && options_.stop->poll()) break;
      Frame& f = frames_.back();
      if (f.next == f.count) {  // every move tried: undo the move that led here
        frames_.pop_back();
        if (frames_.empty()) break;
        unplay();
        continue;
      }
      const std::uint32_t move = f.moves[f.next++];
      play(move, f);
      if (remaining_ == 1) {  // the last square: the invariant guarantees it is next to the head
        const std::uint32_t last = closed_ ? start_ : last_free_neighbour(move);
        if (!closed_) path_.push_back(last);
        result.outcome = ExactSearchResult::Outcome::found;
        result.tour = path_;
        result.nodes = nodes_;
        return result;
      }
      if (!expand()) unplay();
    }
    result.nodes = nodes_;
    result.outcome =
        frames_.empty() ? ExactSearchResult::Outcome::none : ExactSearchResult::Outcome::stopped;
    return result;
  }

 private:
  struct Frame {
    std::uint32_t moves[8];
    std::uint8_t count = 0;
    std::uint8_t next = 0;
    std::int64_t critical[2] = {kNone, kNone};  // squares that become the end unless visited next
    std::int64_t end_before = kNone;
  };

  ExactSearchResult& none(ExactSearchResult& r) {
    r.outcome = ExactSearchResult::Outcome::none;
    r.nodes = nodes_;
    return r;
  }

  int neighbours(std::uint32_t v, std::uint32_t* out) const { return geometry_.neighbours(v, out); }
  bool adjacent(std::uint32_t a, std::uint32_t b) const { return geometry_.adjacent(a, b); }

  std::uint32_t last_free_neighbour(std::uint32_t head) const {
    std::uint32_t nb[8];
    const int k = neighbours(head, nb);
    for (int i = 0; i < k; ++i) {
      if (free_[nb[i]]) return nb[i];
    }
    return head;  // unreachable by the invariant
  }

  // Pushes the frame of the node whose head is path_.back(); false when it is dead.
  bool expand() {
    ++nodes_;
    if (!outer_.empty()) {
      // No two outer squares in a row: after the head, at most every other square is outer.
      const std::uint32_t allowed = outer_[path_.back()] ? remaining_ / 2 : (remaining_ + 1) / 2;
      if (free_outer_ > allowed) return false;
    }
    Frame f;
    f.end_before = end_;
    std::uint32_t nb[8];
    const std::uint32_t head = path_.back();
    const int k = neighbours(head, nb);
    int criticals = 0;
    for (int i = 0; i < k; ++i) {
      const std::uint32_t w = nb[i];
      if (!free_[w]) continue;
      if (degree_[w] == 0) return false;  // it could only be entered from here, and then stuck
      if (static_cast<std::int64_t>(w) == end_) continue;
      if (degree_[w] == 1) {
        if (criticals == 2) return false;
        f.critical[criticals++] = w;
      }
      f.moves[f.count++] = w;
    }
    if (criticals > 0) {
      const bool cannot_be_last = end_ != kNone || (remaining_ & 1) == 0;
      if (cannot_be_last && criticals > 1) return false;
      if (cannot_be_last || criticals == 2) {
        f.count = 0;
        for (int i = 0; i < criticals; ++i)
          f.moves[f.count++] = static_cast<std::uint32_t>(f.critical[i]);
      }
    }
    if (f.count == 0) return false;
    std::sort(f.moves, f.moves + f.count, [&](std::uint32_t a, std::uint32_t b) {
      return degree_[a] != degree_[b] ? degree_[a] < degree_[b] : tie_[a] > tie_[b];
    });
    frames_.push_back(f);
    return true;
  }

  void play(std::uint32_t v, const Frame& parent) {
    free_[v] = 0;
    if (!outer_.empty()) free_outer_ -= outer_[v];
    --remaining_;
    path_.push_back(v);
    std::uint32_t nb[8];
    const int k = neighbours(v, nb);
    for (int i = 0; i < k; ++i) degree_[nb[i]] -= free_[nb[i]];
    for (auto c : parent.critical) {
      if (c != kNone && c != static_cast<std::int64_t>(v)) end_ = c;
    }
  }

  void unplay() {
    const std::uint32_t v = path_.back();
    path_.pop_back();
    std::uint32_t nb[8];
    const int k = neighbours(v, nb);
    for (int i = 0; i < k; ++i) degree_[nb[i]] += free_[nb[i]];
    free_[v] = 1;
    if (!outer_.empty()) free_outer_ += outer_[v];
    ++remaining_;
    end_ = frames_.back().end_before;
  }

  int rows_, cols_;
  KnightGeometry geometry_;
  std::uint32_t n_;
  std::uint32_t start_;
  bool closed_;
  ExactSearchOptions options_;
  std::vector<std::uint8_t> free_;
  std::vector<std::uint8_t> degree_;
  std::vector<double> tie_;
  std::vector<std::uint8_t> outer_;  // 4 x n boards only: the two outer lines
  std::uint32_t free_outer_ = 0;
  std::vector<std::uint32_t> path_;
  std::vector<Frame> frames_;
  std::int64_t end_ = kNone;
  std::uint32_t remaining_ = 0;
  std::uint64_t nodes_ = 0;
};

}  // namespace

ExactSearchResult exact_tour_search(const BoardShape& shape, std::uint32_t start,
                                    const ExactSearchOptions& options) {
  return ExactSearch(shape, start, options).run();
}

}  // namespace knightstour
