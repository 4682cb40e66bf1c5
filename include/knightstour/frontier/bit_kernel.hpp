#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

namespace knightstour {

// The two bit moves a class key needs on every pack and unpack: a slot's two type bits are
// interleaved in the key (frontier_class.hpp), so unpack gathers every other bit into one
// mask and pack spreads a mask back to every other bit. x86-64-v2, the portable build's
// target, has no instruction for either; BMI2's pext and pdep do each in one. On this
// project's AMD EPYC (Zen 4) unpack is 18-20% faster with them and a whole count takes 4-5%
// less CPU; on a Sapphire Rapids Xeon a whole count gained nothing
// (docs/speed.md (bit-kernel.md)).
//
// The portable build must run on any x86-64-v2 machine, so the choice is made at run time:
// the kernel is compiled for both (a template parameter), and the step picks one per run
// (chosen_bit_kernel()). BMI2 is emitted by inline assembly, not by compiling a unit with
// -mbmi2: inline functions compiled under two sets of flags would be merged by the linker
// and could put BMI2 code on the portable path.
enum class BitKernel { portable, bmi2 };

std::string_view bit_kernel_name(BitKernel k);

// The kernel this process uses: bmi2 on AMD since Zen 3, where it was measured faster;
// portable elsewhere (Zen 1 and 2 run pext/pdep in microcode, hundreds of cycles, and the
// Intel CPU measured gained nothing). KNIGHTSTOUR_BIT_KERNEL=portable forces the portable one
// (tests run both paths; benchmarks compare them); =bmi2 asks for BMI2 even where it is
// slow. Decided once, on the first call that returns; throws UsageError for any other value,
// or for bmi2 on a CPU without it.
BitKernel chosen_bit_kernel();

// Whether this CPU can run the bmi2 kernel at all (tests skip the comparison where not).
bool cpu_has_bmi2();
// Whether this CPU runs pext and pdep in a few cycles: BMI2 on Intel and on AMD since Zen 3
// (Zen 1 and 2 run them in microcode). Compact classes pack with them where it does.
bool cpu_has_fast_bmi2();

namespace frontier_detail {

// x's bits under `mask` gathered to the low end (BMI2's pext), and the inverse: the low bits
// of x spread to the places of mask's bits (pdep). One instruction with the bmi2 kernel;
// else a loop with as many rounds as the mask has bits.
template <BitKernel B>
inline __attribute__((always_inline)) std::uint64_t extract_bits(std::uint64_t x,
                                                                 std::uint64_t mask) {
#if defined(__x86_64__)
  if constexpr (B == BitKernel::bmi2) {
    std::uint64_t r;
    __asm__("pextq %2, %1, %0" : "=r"(r) : "r"(x), "r"(mask));
    return r;
  }
#endif
  std::uint64_t r = 0;
  for (std::uint64_t bit = 1; mask != 0; mask &= mask - 1, bit <<= 1) {
    if ((x & mask & (0 - mask)) != 0) r |= bit;
  }
  return r;
}
template <BitKernel B>
inline __attribute__((always_inline)) std::uint64_t deposit_bits(std::uint64_t x,
                                                                 std::uint64_t mask) {
#if defined(__x86_64__)
  if constexpr (B == BitKernel::bmi2) {
    std::uint64_t r;
    __asm__("pdepq %2, %1, %0" : "=r"(r) : "r"(x), "r"(mask));
    return r;
  }
#endif
  std::uint64_t r = 0;
  for (std::uint64_t bit = 1; mask != 0; mask &= mask - 1, bit <<= 1) {
    if ((x & bit) != 0) r |= mask & (0 - mask);
  }
  return r;
}

inline constexpr std::uint64_t kEvenBits = 0x5555555555555555ull;

// Bits 0, 2, 4, ... of x as bits 0, 1, 2, ... (BMI2's pext with the even bits).
template <BitKernel B>
inline __attribute__((always_inline)) std::uint32_t gather_even(std::uint64_t x) {
  if constexpr (B == BitKernel::bmi2)
    return static_cast<std::uint32_t>(extract_bits<B>(x, kEvenBits));
  // Five shift-and-mask steps that x86-64-v2 has.
  x &= kEvenBits;
  x = (x | (x >> 1)) & 0x3333333333333333ull;
  x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0full;
  x = (x | (x >> 4)) & 0x00ff00ff00ff00ffull;
  x = (x | (x >> 8)) & 0x0000ffff0000ffffull;
  return static_cast<std::uint32_t>(x | (x >> 16));
}

// x's bits spread to every other bit, bit i to bit 2i (the inverse of gather_even; pdep).
struct Spread {
  std::uint16_t of[256];
  constexpr Spread() : of() {
    for (int x = 0; x < 256; ++x) {
      std::uint16_t y = 0;
      for (int b = 0; b < 8; ++b) y = static_cast<std::uint16_t>(y | (((x >> b) & 1) << (2 * b)));
      of[x] = y;
    }
  }
};
inline constexpr Spread kSpread{};

template <BitKernel B>
inline __attribute__((always_inline)) std::uint64_t spread(std::uint32_t x) {
  if constexpr (B == BitKernel::bmi2) return deposit_bits<B>(x, kEvenBits);
  // A class has at most 24 slots.
  return kSpread.of[x & 0xff] | (std::uint64_t{kSpread.of[(x >> 8) & 0xff]} << 16) |
         (std::uint64_t{kSpread.of[(x >> 16) & 0xff]} << 32);
}

// The slot of the n-th (from 0) set bit of x, for the bmi2 kernel only: pdep puts a single
// bit at that place. (x86-64-v2 has no instruction for it; the portable unpack keeps a list.)
inline __attribute__((always_inline)) int nth_set_bit_bmi2(std::uint32_t x, int n) {
  return std::countr_zero(deposit_bits<BitKernel::bmi2>(std::uint64_t{1} << n, x));
}

}  // namespace frontier_detail

}  // namespace knightstour
