#pragma once

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <bit>
#include <cstdint>

#include "knightstour/frontier/bit_kernel.hpp"
#include "knightstour/frontier/sweep.hpp"

namespace knightstour {

// A class of partial path systems, packed into one 64-bit key.
//
// The sweep adds the board's squares one at a time (sweep order, sweep.hpp). When square k
// is added, the DP chooses which of its edges to earlier squares are in the tour: at most
// two. After step k the squares 0..k are "processed"; the edges chosen so far form disjoint
// paths (fragments). Everything the rest of the search needs to know about them is:
//   - for each processed square that still has unprocessed neighbours: its degree so far
//     (0 free, 1 an end of a fragment, 2 done), and for an end, the other end (its mate);
//   - open tours only: the same for T, a virtual square next to every square. A Hamiltonian
//     path of the board is a Hamiltonian cycle through T; T's two edges mark the path's two
//     ends (Knuth's trick turning E into E+).
// Partial systems that agree on this are interchangeable: the DP keeps one class for them
// and the number of systems it stands for (its count).
//
// Which processed squares can still have unprocessed neighbours? A knight move spans at
// most 2W+1 steps of the sweep (W across), so after step k only squares k-2W .. k can: the
// window. A class has kSlots(W) = 2W+2 slots:
//   slot 0       T (open tours; always "done" when counting cycles)
//   slot 1 + d   square k - d, for d = 0 .. 2W  (before square 0: "done", no square)
// Invariants of every stored class:
//   I1 every endpoint's mate is an endpoint in another slot, and mate(mate(s)) = s;
//   I2 no fragment is closed into a cycle (cycles close only at the last square);
//   I3 a square whose neighbours are all processed is done (its slot says 1).
//
// Packing (canonical: equal information gives equal keys): 2 bits per slot, slot 0 lowest:
//   0 free, 1 done, 2 an end whose mate is in a later slot (an "opener"),
//   3 an end whose mate is in an earlier slot (a "closer");
// above them, for each closer in slot order, which of the u openers still unmatched at that
// point (in slot order) is its mate, in ceil(log2 u) bits. With W = 8 and T: 36 bits of
// types and at most 4+3+3+3+3+2+2+1 = 21 bits of mates: 57 bits. At W = 9 (40 bits of
// types) a class with nearly every slot an end would need up to 25 bits of mates, 65 in
// all; a class whose fields pass 63 bits instead holds its mates as one mixed-radix number
// (each closer's choice a digit of radix u, the first closer's lowest: below 10! < 2^22, so
// 62 bits) and sets bit 63. Which form a class takes follows from its types alone, so keys
// stay canonical; the fields are the fast form every class of W <= 8 takes. A key never
// has all 64 bits set, so ~0 marks an empty hash slot.

// The kernel's helpers run once per class or successor; GCC left them out of line (a call
// and a Frontier through memory each time), so they are forced inline.
#define KNIGHTSTOUR_FRONTIER_INLINE inline __attribute__((always_inline))

// Slots of a class for a sweep W squares wide, and in a step's widened view (+ the new square).
constexpr int class_slots(int width) { return 2 * width + 2; }
inline constexpr int kMaxClassSlots = 2 * kMaxFrontierWidth + 2;
inline constexpr int kMaxStepSlots = kMaxClassSlots + 1;
inline constexpr std::uint64_t kNoClass = ~std::uint64_t{0};
inline constexpr std::uint64_t kMixedRadixMates = std::uint64_t{1} << 63;

// A class unpacked: slot sets as bit masks, and the mate of every endpoint.
static_assert(kMaxStepSlots <= 32);
struct Frontier {
  std::uint32_t free = 0;  // degree 0
  std::uint32_t done = 0;  // degree 2, or no square
  // The first kMaxStepSlots are slots; 32 so that closers_of reads them in two 16-byte loads.
  std::uint8_t mate[32] = {};

  std::uint32_t ends(int slots) const { return ~(free | done) & ((1u << slots) - 1); }
};

namespace frontier_detail {

// Bits that name one of u unmatched openers.
inline constexpr std::uint8_t kMateBits[kMaxClassSlots / 2 + 1] = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4};

// The mixed-radix form's digits are read back by multiplying with a reciprocal: with
// r = ceil(2^32 / u), (x * r) >> 32 = x / u for every x < 2^32 / u (the error
// x (r u - 2^32) / (u 2^32) stays below 1/u); tests check every x < kMaxMateNumber.
struct Reciprocals {
  std::uint64_t of[kMaxClassSlots / 2 + 1];
  constexpr Reciprocals() : of() {
    for (int u = 1; u <= kMaxClassSlots / 2; ++u) of[u] = ((std::uint64_t{1} << 32) + u - 1) / u;
  }
};
inline constexpr Reciprocals kReciprocals{};
inline constexpr std::uint64_t kMaxMateNumber = std::uint64_t{1} << 22;

KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t divide_small(std::uint64_t x, int u) {
  return (x * kReciprocals.of[u]) >> 32;
}

// The ends whose mate is in an earlier slot.
KNIGHTSTOUR_FRONTIER_INLINE std::uint32_t closers_of(const Frontier& f, std::uint32_t ends) {
#ifdef __SSE2__
  // mate[i] < i for all slots at once (bytes compared as signed; all are below 32).
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(f.mate));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(f.mate + 16));
  const __m128i slot_lo = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m128i slot_hi = _mm_add_epi8(slot_lo, _mm_set1_epi8(16));
  const auto below =
      static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi8(lo, slot_lo))) |
      (static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi8(hi, slot_hi))) << 16);
  return below & ends;
#else
  std::uint32_t closers = 0;
  for (std::uint32_t e = ends; e != 0; e &= e - 1) {
    const int i = std::countr_zero(e);
    closers |= static_cast<std::uint32_t>(f.mate[i] < i) << i;
  }
  return closers;
#endif
}

// The loops run over closers only, and nothing in them depends on a value the loop before
// computed except two running sums: whether an end opens or closes is as good as random to
// the branch predictor, and a loop over every end that branched on it cost twice this.
// `closers` may be a superset (only its bits on ends count): the ends whose mate is in an
// earlier slot.
template <bool Mixed, BitKernel B>
KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t pack_as(const Frontier& f, int slots,
                                                  std::uint32_t closers) {
  const std::uint32_t in = (1u << slots) - 1;
  const std::uint32_t ends = f.ends(slots);
  closers &= ends;
  const std::uint32_t openers = ends & ~closers;
  // Types: done 01, opener 10, closer 11 (low bit: done or closer; high bit: an end).
  const std::uint64_t types = spread<B>((f.done & in) | closers) | (spread<B>(ends) << 1);
  std::uint64_t mates = 0;
  int mate_bits = 0;        // fields
  std::uint64_t radix = 1;  // mixed radix
  std::uint32_t matched = 0;
  for (std::uint32_t c = closers; c != 0; c &= c - 1) {
    const int i = std::countr_zero(c);
    const int m = f.mate[i];
    const std::uint32_t unmatched = openers & ((1u << i) - 1) & ~matched;
    const auto index = static_cast<std::uint64_t>(std::popcount(unmatched & ((1u << m) - 1)));
    const int u = std::popcount(unmatched);
    if constexpr (Mixed) {
      mates += index * radix;
      radix *= static_cast<std::uint64_t>(u);
    } else {
      mates |= index << mate_bits;
      mate_bits += kMateBits[u];
    }
    matched |= 1u << m;
  }
  if constexpr (Mixed) {
    return types | (mates << (2 * slots)) | kMixedRadixMates;
  } else {
    // No class packs to kNoClass: here it tells pack() to take the mixed-radix form.
    if (2 * slots + mate_bits > 63) [[unlikely]]
      return kNoClass;
    return types | (mates << (2 * slots));
  }
}

// Out of line: only nine-wide classes with nearly every slot an end come here.
[[gnu::noinline]] inline std::uint64_t pack_mixed(const Frontier& f, int slots,
                                                  std::uint32_t closers) {
  return pack_as<true, BitKernel::portable>(f, slots, closers);
}

}  // namespace frontier_detail

// Packs slots [0, slots) of f, whose closers (the ends whose mate is in an earlier slot) the
// caller knows: the kernel keeps them as it links (link() in transition.hpp). Finding them
// from the mates instead reads the mate bytes link() has just written as two 16-byte words,
// which the CPU cannot forward from the byte stores: a stall that was a fifth of the
// kernel's time.
template <BitKernel B = BitKernel::portable>
KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t pack(const Frontier& f, int slots,
                                               std::uint32_t closers) {
  const std::uint64_t key = frontier_detail::pack_as<false, B>(f, slots, closers);
  if (key == kNoClass) [[unlikely]]
    return frontier_detail::pack_mixed(f, slots, closers);
  return key;
}

// Packs slots [0, slots) of f.
template <BitKernel B = BitKernel::portable>
KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t pack(const Frontier& f, int slots) {
  return pack<B>(f, slots, frontier_detail::closers_of(f, f.ends(slots)));
}

namespace frontier_detail {

template <bool Mixed, BitKernel B, bool Twin = false>
KNIGHTSTOUR_FRONTIER_INLINE std::uint32_t unpack_as(std::uint64_t key, int slots, int shift,
                                                    Frontier& f, Frontier* twin = nullptr) {
  // A type's low and high bits, one bit a slot: free 00, done 01, opener 10, closer 11.
  const std::uint32_t low = gather_even<B>(key);
  const std::uint32_t high = gather_even<B>(key >> 1);
  const std::uint32_t in = (1u << slots) - 1;
  auto widen = [&](std::uint32_t x) { return (x & 1u) | ((x & in & ~1u) << shift); };
  f.free = widen(~(low | high));
  f.done = widen(low & ~high);
  const std::uint32_t openers = widen(high & ~low);
  std::uint64_t mates = (key & ~kMixedRadixMates) >> (2 * slots);
  const std::uint32_t closers = widen(high & low);
  // Every opener in slot order, 5 bits each (at most 10 of them); a closer takes its mate
  // out. The openers after a closer sit at the list's end, past the ones it can choose.
  // The bmi2 kernel needs no list: a closer's mate is the index-th bit of the unmatched
  // openers (nth_set_bit_bmi2), and a 7x8 count took 0.98 the CPU without the list's loop
  // (docs/speed.md (grouping.md)).
  constexpr bool kList = Mixed || B != BitKernel::bmi2;
  std::uint64_t list = 0;
  std::uint32_t unmatched_openers = openers;
  if constexpr (kList) {
    int listed = 0;
    for (std::uint32_t o = openers; o != 0; o &= o - 1, ++listed)
      list |= static_cast<std::uint64_t>(std::countr_zero(o)) << (5 * listed);
  }
  for (std::uint32_t c = closers; c != 0; c &= c - 1) {
    const int at = std::countr_zero(c);
    // Openers before `at` not matched yet: each closer before it matched one of them.
    const std::uint32_t before = (1u << at) - 1;
    const int unmatched = std::popcount(openers & before) - std::popcount(closers & before);
    int index;
    if constexpr (Mixed) {
      const std::uint64_t rest = divide_small(mates, unmatched);
      index = static_cast<int>(mates - rest * static_cast<std::uint64_t>(unmatched));
      mates = rest;
    } else {
      const int bits = kMateBits[unmatched];
      index = static_cast<int>(mates & ((std::uint64_t{1} << bits) - 1));
      mates >>= bits;
    }
    int m;
    if constexpr (kList) {
      m = static_cast<int>((list >> (5 * index)) & 31);
      const std::uint64_t kept = list & ((std::uint64_t{1} << (5 * index)) - 1);
      list = kept | ((list >> (5 * index + 5)) << (5 * index));
    } else {
      m = nth_set_bit_bmi2(unmatched_openers, index) & 31;  // a bad key stays in the array
      unmatched_openers &= ~(1u << m);
    }
    f.mate[at] = static_cast<std::uint8_t>(m);
    f.mate[m] = static_cast<std::uint8_t>(at);
    if constexpr (Twin) {
      twin->mate[at] = static_cast<std::uint8_t>(m);
      twin->mate[m] = static_cast<std::uint8_t>(at);
    }
  }
  if constexpr (Twin) {
    twin->free = f.free;
    twin->done = f.done;
  }
  return closers;
}

[[gnu::noinline]] inline std::uint32_t unpack_mixed(std::uint64_t key, int slots, int shift,
                                                    Frontier& f) {
  return unpack_as<true, BitKernel::portable>(key, slots, shift, f);
}

}  // namespace frontier_detail

// Unpacks a key of `slots` slots into f, moving slot i >= 1 to slot i + shift (a step
// widens the window by one slot for the new square). Mates of slots not written are left.
// Returns the closers (ends whose mate is in an earlier slot), in the shifted slots.
template <BitKernel B = BitKernel::portable>
KNIGHTSTOUR_FRONTIER_INLINE std::uint32_t unpack(std::uint64_t key, int slots, int shift,
                                                 Frontier& f) {
  if (key & kMixedRadixMates) [[unlikely]]
    return frontier_detail::unpack_mixed(key, slots, shift, f);
  return frontier_detail::unpack_as<false, B>(key, slots, shift, f);
}

// unpack() into f and twin alike, each mate written to both, for a caller that changes one
// of them at once: a copy of f made right after the unpack would read its mates as 16-byte
// words, which the CPU cannot forward from the unpack's byte stores (expand_planned).
template <BitKernel B = BitKernel::portable>
KNIGHTSTOUR_FRONTIER_INLINE std::uint32_t unpack_twice(std::uint64_t key, int slots, int shift,
                                                       Frontier& f, Frontier& twin) {
  if (key & kMixedRadixMates) [[unlikely]] {
    const std::uint32_t closers = frontier_detail::unpack_mixed(key, slots, shift, f);
    twin = f;
    return closers;
  }
  return frontier_detail::unpack_as<false, B, true>(key, slots, shift, f, &twin);
}

// The key of a class moved one slot up, as a step whose new square takes no edge moves it:
// slot i >= 1 to slot i + 1, the new slot 1 free, and slot `slots` - 1, which must be done,
// out of the window. The ends keep their order, so the mates (fields or mixed-radix number)
// and the key's form stay as they were: only the type bits move, and no pack is needed.
KNIGHTSTOUR_FRONTIER_INLINE std::uint64_t shifted_key(std::uint64_t key, int slots) {
  const std::uint64_t types = (std::uint64_t{1} << (2 * slots)) - 1;
  return (key & 3u) | (((key & types & ~std::uint64_t{3}) << 2) & types) | (key & ~types);
}

// A class's type pattern: the type bits of its key with ends no longer told apart by where
// their mate is (free 00, done 01, end 10), which is all a step's choice of edges reads
// (live_choices.hpp). Classes are routed to their part and rank by the pattern's hash
// (class_hash.hpp), so that the classes of one part share a few hundred patterns.
inline std::uint64_t type_pattern(std::uint64_t key, int slots) {
  const std::uint64_t types = key & ((std::uint64_t{1} << (2 * slots)) - 1);
  return types & ~((types >> 1) & frontier_detail::kEvenBits);
}

// Whether `key` is a class of `slots` slots as the invariants above require: every end
// decodes to a mate that is an end in another slot, and mate(mate(s)) = s (I1), every
// opener is matched, no bit is set past the mates, and the key is canonical (packing
// its unpacked form gives it back). I2 holds by construction (a key cannot express a
// cycle); I3 depends on the step: `must_be_done` are the slots that must say done. Checks
// untrusted keys without reading outside the class, so it can vet any 64-bit value.
inline bool class_invariants_hold(std::uint64_t key, int slots, std::uint32_t must_be_done = 0) {
  if (slots < 2 || slots > kMaxClassSlots || key == kNoClass) return false;
  std::uint32_t done = 0, openers = 0, closers = 0;
  for (int i = 0; i < slots; ++i) {
    const auto type = static_cast<int>((key >> (2 * i)) & 3);
    if (type == 1) done |= 1u << i;
    if (type == 2) openers |= 1u << i;
    if (type == 3) closers |= 1u << i;
  }
  if ((must_be_done & ~done & ((1u << slots) - 1)) != 0) return false;
  const bool mixed = (key & kMixedRadixMates) != 0;
  std::uint64_t mates = (key & ~kMixedRadixMates) >> (2 * slots);
  if (mixed && mates >= frontier_detail::kMaxMateNumber) return false;
  int used = 0, listed = 0;
  for (std::uint32_t e = openers | closers; e != 0; e &= e - 1) {
    const int at = std::countr_zero(e);
    if (openers & (1u << at)) {
      ++listed;
      continue;
    }
    if (listed == 0) return false;  // a closer before any open end
    if (mixed) {
      mates = frontier_detail::divide_small(mates, listed);
    } else {
      const int bits = frontier_detail::kMateBits[listed];
      const auto index = static_cast<int>(mates & ((std::uint64_t{1} << bits) - 1));
      if (index >= listed) return false;
      mates >>= bits;
      used += bits;
    }
    --listed;
  }
  // Which form the key takes is checked below (packing it again gives it back).
  if (listed != 0 || mates != 0 || (!mixed && 2 * slots + used > 63)) return false;
  Frontier f;
  unpack(key, slots, 0, f);
  for (std::uint32_t e = f.ends(slots); e != 0; e &= e - 1) {
    const int i = std::countr_zero(e);
    const int m = f.mate[i];
    if (m == i || m >= slots || !(f.ends(slots) & (1u << m)) || f.mate[m] != i) return false;
  }
  return pack(f, slots) == key;
}

}  // namespace knightstour
