#include "knightstour/frontier/bit_kernel.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <cstdlib>
#include <string>
#include <string_view>

#include "knightstour/base/errors.hpp"

namespace knightstour {

std::string_view bit_kernel_name(BitKernel k) { return k == BitKernel::bmi2 ? "bmi2" : "portable"; }

namespace {

struct Cpu {
  bool bmi2 = false;
  bool gains = false;  // the bmi2 kernel measured faster on this kind of CPU
  bool fast = false;   // pext and pdep take a few cycles, not microcode
};

Cpu this_cpu() {
  Cpu cpu;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return cpu;
  cpu.bmi2 = (b & bit_BMI2) != 0;
  if (!cpu.bmi2) return cpu;
  unsigned vendor_b = 0;
  if (__get_cpuid(0, &a, &vendor_b, &c, &d) == 0) return cpu;
  constexpr unsigned kAuth = 0x68747541;  // "Auth"enticAMD
  // AMD Zen 3 and later (family 0x19 on): 4-5% less CPU a count on Zen 4. Zen 1 and 2 run
  // pext/pdep in microcode. Intel: the one measured (Sapphire Rapids) gained nothing on a whole
  // count, so it keeps the portable kernel (docs/speed.md (bit-kernel.md)).
  cpu.fast = vendor_b != kAuth;
  if (vendor_b == kAuth && __get_cpuid(1, &a, &b, &c, &d) != 0) {
    unsigned family = (a >> 8) & 0xf;
    if (family == 0xf) family += (a >> 20) & 0xff;
    cpu.gains = family >= 0x19;
    cpu.fast = cpu.gains;
  }
#endif
  return cpu;
}

BitKernel choose() {
  const Cpu cpu = this_cpu();
  const char* asked = std::getenv("KNIGHTSTOUR_BIT_KERNEL");
  const std::string_view a(asked != nullptr ? asked : "");
  if (a == "portable") return BitKernel::portable;
  if (a == "bmi2") {
    if (!cpu.bmi2) throw UsageError("KNIGHTSTOUR_BIT_KERNEL=bmi2, but this CPU has no BMI2");
    return BitKernel::bmi2;
  }
  if (!a.empty()) {
    throw UsageError("KNIGHTSTOUR_BIT_KERNEL='" + std::string(a) +
                     "': expected portable or bmi2 (or unset: the fastest this CPU runs)");
  }
  return cpu.gains ? BitKernel::bmi2 : BitKernel::portable;
}

}  // namespace

bool cpu_has_bmi2() { return this_cpu().bmi2; }

bool cpu_has_fast_bmi2() {
  static const bool fast = this_cpu().fast;
  return fast;
}

BitKernel chosen_bit_kernel() {
  static const BitKernel chosen = choose();
  return chosen;
}

}  // namespace knightstour
