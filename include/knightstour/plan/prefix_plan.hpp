#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/search/search_mode.hpp"

namespace knightstour {

// The work units of a run: every path of split_depth + 1 squares that extends one of the
// roots and that the search rules keep alive, numbered 0, 1, 2, ... in canonical order
// (roots in the order given, then depth-first with moves in ascending square index).
// The numbering depends only on (board, roots, mode, split depth). Listing polls the stop
// signals and throws Interrupted when one arrived.
class PrefixPlan {
 public:
  // A plan past this many prefixes is refused (UsageError): its lists alone would take
  // gigabytes, and no machine needs that many work units.
  static constexpr std::size_t kMaxPrefixes = 10'000'000;

  PrefixPlan(const Board& board, const std::vector<std::vector<std::uint8_t>>& roots,
             SearchMode mode, int split_depth);

  int split_depth() const { return depth_; }
  int length() const { return depth_ + 1; }  // squares in each prefix
  std::size_t size() const { return squares_.size() / static_cast<std::size_t>(length()); }
  std::span<const std::uint8_t> operator[](std::size_t id) const {
    return {squares_.data() + id * static_cast<std::size_t>(length()),
            static_cast<std::size_t>(length())};
  }

 private:
  int depth_;
  std::vector<std::uint8_t> squares_;
};

// Number of prefixes at each depth from the roots' depth up to max_depth, stopping early
// once a level holds at least `enough` prefixes. Used to pick a default split depth.
std::vector<std::size_t> prefix_counts(const Board& board,
                                       const std::vector<std::vector<std::uint8_t>>& roots,
                                       SearchMode mode, int max_depth, std::size_t enough);

}  // namespace knightstour
