#include "knightstour/find/heuristic_tour.hpp"

#include <algorithm>
#include <limits>
#include <random>

#include "knightstour/board/knight_geometry.hpp"

namespace knightstour {

namespace {

class PathBuilder {
 public:
  PathBuilder(const BoardShape& shape, std::uint64_t seed, bool roth, bool jitter)
      : geometry_(shape),
        n_(static_cast<std::uint32_t>(shape.squares())),
        free_degree_(n_),
        position_(n_, kFree),
        rng_(seed),
        roth_(roth),
        jitter_(jitter) {
    for (std::uint32_t v = 0; v < n_; ++v) {
      std::uint32_t nb[8];
      free_degree_[v] = static_cast<std::uint8_t>(neighbours(v, nb));
    }
    path_.reserve(n_);
  }

  void place(std::uint32_t v) {
    position_[v] = static_cast<std::int64_t>(path_.size());
    path_.push_back(v);
    std::uint32_t nb[8];
    const int k = neighbours(v, nb);
    for (int i = 0; i < k; ++i) {
      if (position_[nb[i]] == kFree) --free_degree_[nb[i]];
    }
  }

  // Warnsdorff's rule until stuck.
  void extend() {
    std::uint32_t nb[8];
    while (path_.size() < n_) {
      const std::uint32_t end = path_.back();
      const int k = neighbours(end, nb);
      int best = -1;
      int best_degree = 9;
      double best_tie = 0;
      for (int i = 0; i < k; ++i) {
        if (position_[nb[i]] != kFree) continue;
        const int d = free_degree_[nb[i]];
        const double tie = tie_key(nb[i]);
        if (d < best_degree || (d == best_degree && tie > best_tie)) {
          best = i;
          best_degree = d;
          best_tie = tie;
        }
      }
      if (best < 0) return;
      place(nb[best]);
    }
  }

  bool complete() const { return path_.size() == n_; }
  bool closes() const { return n_ > 1 && adjacent(path_.back(), path_.front()); }

  // One rotation that moves the end toward `target` (or gives it a free neighbour when
  // `want_free`). Returns false when the end has no usable pivot.
  bool rotate_toward(std::uint32_t target, bool want_free) {
    std::uint32_t nb[8];
    const std::uint32_t end = path_.back();
    const auto last = static_cast<std::int64_t>(path_.size()) - 1;
    const int k = neighbours(end, nb);
    std::int64_t pivots[8];
    int count = 0;
    for (int i = 0; i < k; ++i) {
      const auto p = position_[nb[i]];
      if (p != kFree && p < last - 1) pivots[count++] = p;
    }
    if (count == 0) return false;
    // Prefer a new end with a free neighbour (the path can grow again), then the new end
    // nearest the target; now and then a random pivot, so greedy loops get broken.
    std::int64_t chosen = -1;
    if (want_free) {
      for (int i = 0; i < count; ++i) {
        if (has_free_neighbour(path_[static_cast<std::size_t>(pivots[i] + 1)]) &&
            pivots[i] > chosen)
          chosen = pivots[i];
      }
    }
    if (chosen < 0) {
      if (std::uniform_int_distribution<int>(0, 9)(rng_) == 0) {
        chosen = pivots[std::uniform_int_distribution<int>(0, count - 1)(rng_)];
      } else {
        double best = std::numeric_limits<double>::max();
        for (int i = 0; i < count; ++i) {
          const double d = distance2(path_[static_cast<std::size_t>(pivots[i] + 1)], target) +
                           std::uniform_real_distribution<double>(0, 0.5)(rng_);
          if (d < best) {
            best = d;
            chosen = pivots[i];
          }
        }
      }
    }
    std::reverse(path_.begin() + chosen + 1, path_.end());
    for (auto i = static_cast<std::size_t>(chosen + 1); i < path_.size(); ++i) {
      position_[path_[i]] = static_cast<std::int64_t>(i);
    }
    return true;
  }

  // A free square near the end of the path (the first one found scanning from a cursor).
  std::uint32_t some_free_square() {
    while (position_[cursor_] != kFree) cursor_ = (cursor_ + 1) % n_;
    return cursor_;
  }

  std::vector<std::uint32_t>& path() { return path_; }

 private:
  static constexpr std::int64_t kFree = -1;

  int neighbours(std::uint32_t v, std::uint32_t* out) const { return geometry_.neighbours(v, out); }
  bool adjacent(std::uint32_t a, std::uint32_t b) const { return geometry_.adjacent(a, b); }

  bool has_free_neighbour(std::uint32_t v) const {
    std::uint32_t nb[8];
    const int k = neighbours(v, nb);
    for (int i = 0; i < k; ++i) {
      if (position_[nb[i]] == kFree) return true;
    }
    return false;
  }

  double distance2(std::uint32_t a, std::uint32_t b) const { return geometry_.distance2(a, b); }

  // Larger wins a tie: distance from the centre (Roth), or a random key.
  double tie_key(std::uint32_t v) {
    if (!roth_) return std::uniform_real_distribution<double>(0, 1)(rng_);
    // Squared distances from the centre are multiples of 1/4: a jitter below that only
    // reorders squares at equal distance.
    const double jitter = jitter_ ? std::uniform_real_distribution<double>(0, 0.2)(rng_) : 0;
    return geometry_.from_centre2(v) + jitter;
  }

  KnightGeometry geometry_;
  std::uint32_t n_;
  std::vector<std::uint8_t> free_degree_;
  std::vector<std::int64_t> position_;
  std::vector<std::uint32_t> path_;
  std::mt19937_64 rng_;
  bool roth_;
  bool jitter_;
  std::uint32_t cursor_ = 0;
};

}  // namespace

HeuristicResult heuristic_tour(const BoardShape& shape, std::uint32_t start,
                               const HeuristicOptions& options) {
  HeuristicResult result;
  for (int attempt = 0; attempt < options.attempts; ++attempt) {
    if (options.stop && options.stop->poll()) break;
    result.attempts = attempt + 1;
    // Ties farthest from the centre (Roth) make Warnsdorff's rule reliable on large boards,
    // but give one tour per start. Seed 0 starts with that rule. Another seed starts with
    // random ties, so seeds give different tours, but with few repairs allowed (each Posa
    // rotation costs up to the path's length: random ties on a 1000x1000 board would need
    // minutes), then falls back to Roth's rule with random order among equal distances.
    // Later attempts break every tie at random.
    const bool seeded = options.seed != 0;
    const bool roth = seeded ? attempt == 1 : attempt == 0;
    const std::uint64_t max_rotations = seeded && attempt == 0
                                            ? std::min<std::uint64_t>(options.max_rotations, 64)
                                            : options.max_rotations;
    PathBuilder builder(shape, options.seed * 1'000'003 + static_cast<std::uint64_t>(attempt), roth,
                        seeded);
    builder.place(start);
    builder.extend();
    std::uint64_t rotations = 0;
    std::uint64_t dead_ends = builder.complete() ? 0 : 1;
    bool stuck = false;
    while (!builder.complete() && rotations < max_rotations) {
      if (!builder.rotate_toward(builder.some_free_square(), true)) {
        stuck = true;
        break;
      }
      ++rotations;
      builder.extend();
      if ((rotations & 1023) == 0 && options.stop && options.stop->poll()) break;
    }
    if (!builder.complete() || stuck) continue;
    if (options.closed) {
      while (!builder.closes() && rotations < max_rotations) {
        if (!builder.rotate_toward(start, false)) break;
        ++rotations;
        if ((rotations & 1023) == 0 && options.stop && options.stop->poll()) break;
      }
      if (!builder.closes()) continue;
    }
    result.found = true;
    result.tour = std::move(builder.path());
    result.rotations = rotations;
    result.dead_ends = dead_ends;
    result.how = std::string("Warnsdorff's rule (ties: ") +
                 (roth ? (seeded ? "farthest from the centre, seeded among equals"
                                 : "farthest from the centre")
                       : "random, seeded") +
                 ")" +
                 (rotations ? ", repaired with " + std::to_string(rotations) + " Posa rotation" +
                                  (rotations == 1 ? "" : "s")
                            : "") +
                 ", attempt " + std::to_string(attempt + 1);
    return result;
  }
  result.how = "Warnsdorff's rule with repair found nothing in " + std::to_string(result.attempts) +
               " attempts";
  return result;
}

}  // namespace knightstour
