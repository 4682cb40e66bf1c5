#pragma once

#include <bit>
#include <cstdint>

#include "frontier/class/frontier_class.hpp"
#include "knightstour/frontier/bit_kernel.hpp"

namespace knightstour {

// The sweep's own symmetry: the mirror across (sweep position u to W-1-u; sweep.hpp).
//
// After a step that completes a column (square k with k mod W = W-1), the processed squares
// are whole columns. The mirror across then maps the processed squares onto themselves, and
// so the unprocessed squares, the edges still to choose and T (next to every square) too. A
// class and its mirror image therefore have the same number of completions, and the DP keeps
// one of the two (keep_mirror_canonical) with the sum of their counts. Every later generation
// holds only what descends from the classes kept: 0.6 as many classes on 7x8 and 8x8 closed
// (docs/speed.md (mirror-fold.md)), at the price of a mirror image for some
// successors of the steps that end a column.
//
// This holds wherever the rest of the sweep treats every square alike up to the mirror:
// closed cycles, open paths with T free, a sweep pinned on the mirror's axis (the middle of
// an odd width, its own image), and any pinned sweep once its pin is processed. Before a pin
// off the axis it does not: the pin's image is another square. After such a pin it holds but
// does not pay: the classes the pin leaves are not symmetric, so few meet their image (6x7
// from a1 expanded 13.76 M classes folded, 13.69 M not). So sweeps without a pin and sweeps
// pinned on the axis are folded (make_step_rules, StepRule::fold_mirror); the all-starts
// prefix, whose classes go on into pinned sweeps, is not. Pruning rules do not matter: each
// loses no tour, so the DP's count of a class is its true number of completions whether or
// not a rule would have pruned its image.
//
// Slots after such a step (frontier_class.hpp): 0 is T, 1 + d the square k - d. For d < 2W
// the square is in column (d div W) back, at u = W-1 - (d mod W), so the mirror takes d to
// W (d div W) + W-1 - (d mod W); slot 1 + 2W, the last square of the column before those
// two, has every neighbour processed and is done (I3): it stays.
struct MirrorMap {
  int width = 0;
  int slots = 0;
  std::uint8_t to[kMaxClassSlots] = {};
};

inline MirrorMap across_mirror(int width) {
  MirrorMap m;
  m.width = width;
  m.slots = class_slots(width);
  for (int s = 0; s < m.slots; ++s) m.to[s] = static_cast<std::uint8_t>(s);
  for (int d = 0; d < 2 * width; ++d) {
    m.to[1 + d] = static_cast<std::uint8_t>(1 + width * (d / width) + width - 1 - d % width);
  }
  return m;
}

namespace frontier_detail {

KNIGHTSTOUR_FRONTIER_INLINE std::uint32_t mirror_slots(std::uint32_t set, const MirrorMap& m) {
  std::uint32_t out = 0;
  for (std::uint32_t x = set; x != 0; x &= x - 1) out |= 1u << m.to[std::countr_zero(x)];
  return out;
}

// The 32 two-bit fields of x in reverse order.
KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t reverse_fields(std::uint64_t x) {
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(x);
}

}  // namespace frontier_detail

// The type pattern (type_pattern, frontier_class.hpp) of the mirror image of a class whose
// pattern is `pattern`: the pattern tells ends apart only as ends, so its fields just move
// with their slots. Each of the two columns' W fields reverses; T and the last slot stay.
KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t mirrored_pattern(std::uint64_t pattern,
                                                           const MirrorMap& m) {
  const int bits = 2 * m.width;
  const std::uint64_t column = (std::uint64_t{1} << bits) - 1;
  const std::uint64_t near = (pattern >> 2) & column;
  const std::uint64_t far = (pattern >> (2 + bits)) & column;
  auto reversed = [&](std::uint64_t x) {
    return frontier_detail::reverse_fields(x) >> (64 - bits);
  };
  return (pattern & ~(((column << bits) | column) << 2)) | (reversed(near) << 2) |
         (reversed(far) << (2 + bits));
}

// The key of the mirror image of the class `key` (a class after a step that ends a column).
template <BitKernel B = BitKernel::portable>
inline std::uint64_t mirrored_key(std::uint64_t key, const MirrorMap& m) {
  Frontier f;
  unpack<B>(key, m.slots, 0, f);
  Frontier g;
  const std::uint32_t in = (1u << m.slots) - 1;
  g.free = frontier_detail::mirror_slots(f.free & in, m);
  g.done = frontier_detail::mirror_slots(f.done & in, m);
  for (std::uint32_t e = f.ends(m.slots); e != 0; e &= e - 1) {
    const int i = std::countr_zero(e);
    g.mate[m.to[i]] = m.to[f.mate[i]];
  }
  return pack<B>(g, m.slots);
}

// Which of a class and its mirror image the DP keeps. Any choice that a class and its image
// agree on counts right; this one is cheap and keeps few classes: of the two type patterns,
// the one that wins at the first slot where they differ, from slot 0 (T, then the newest
// square) up, where a done square beats an end and an end a free square (the lowest bit in
// which the patterns differ is set in the winner's); where the patterns are equal, the
// smaller key. Where the class's own pattern wins, which costs a few shifts to see, the
// image's key is not built. It left fewer classes than the smaller key or the smaller
// pattern: 7x8 closed 95.3 M expanded, against 108.9 M and 110.8 M (162.9 M not folded);
// 6x7 open (every path once) 18.5 M, against 21.4 M and 20.7 M (32.1 M). An end beating a done
// square left about as many (93.6 M and 18.5 M) with a higher peak (11.4 M against 10.5 M on 7x8).
// The choice matters because the rest of the sweep prunes a class and its image at different steps.
// Replaces `key` by the image's key and `pattern` by its pattern when the image is kept;
// returns whether it is.
template <BitKernel B = BitKernel::portable>
KNIGHTSTOUR_FRONTIER_INLINE bool keep_mirror_canonical(std::uint64_t& key, std::uint64_t& pattern,
                                                       const MirrorMap& m) {
  const std::uint64_t image_pattern = mirrored_pattern(pattern, m);
  const std::uint64_t differ = pattern ^ image_pattern;
  if ((pattern & differ & (~differ + 1)) != 0) return false;  // the first difference is ours
  const std::uint64_t image = mirrored_key<B>(key, m);
  if (differ == 0 && key <= image) return false;
  key = image;
  pattern = image_pattern;
  return true;
}

// The key kept for the class `key` or its mirror image (keep_mirror_canonical).
template <BitKernel B = BitKernel::portable>
inline std::uint64_t mirror_canonical(std::uint64_t key, const MirrorMap& m) {
  std::uint64_t pattern = type_pattern(key, m.slots);
  keep_mirror_canonical<B>(key, pattern, m);
  return key;
}

}  // namespace knightstour
