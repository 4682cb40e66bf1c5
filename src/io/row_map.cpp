#include "knightstour/io/row_map.hpp"

#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace knightstour {

namespace {

void map_scalar(const std::uint8_t* table, const std::uint8_t* in, std::uint8_t* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = table[in[i]];
}

#if defined(__x86_64__) && defined(__SSSE3__)
// pshufb looks up 16 entries at a time: combine the four quarters of the 64-entry table.
void map_ssse3(const std::uint8_t* table, const std::uint8_t* in, std::uint8_t* out, int n) {
  const __m128i low4 = _mm_set1_epi8(0x0F);
  const __m128i t0 = _mm_load_si128(reinterpret_cast<const __m128i*>(table));
  const __m128i t1 = _mm_load_si128(reinterpret_cast<const __m128i*>(table + 16));
  const __m128i t2 = _mm_load_si128(reinterpret_cast<const __m128i*>(table + 32));
  const __m128i t3 = _mm_load_si128(reinterpret_cast<const __m128i*>(table + 48));
  for (int i = 0; i < n; i += 16) {
    const __m128i idx = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const __m128i lo = _mm_and_si128(idx, low4);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(idx, 4), low4);
    __m128i r = _mm_and_si128(_mm_shuffle_epi8(t0, lo), _mm_cmpeq_epi8(hi, _mm_setzero_si128()));
    r = _mm_or_si128(r,
                     _mm_and_si128(_mm_shuffle_epi8(t1, lo), _mm_cmpeq_epi8(hi, _mm_set1_epi8(1))));
    r = _mm_or_si128(r,
                     _mm_and_si128(_mm_shuffle_epi8(t2, lo), _mm_cmpeq_epi8(hi, _mm_set1_epi8(2))));
    r = _mm_or_si128(r,
                     _mm_and_si128(_mm_shuffle_epi8(t3, lo), _mm_cmpeq_epi8(hi, _mm_set1_epi8(3))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), r);
  }
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's _mm512_permutexvar_epi8 starts from an "undefined" vector it then calls
// uninitialized; the warning is about the header, not this code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void map_vbmi(const std::uint8_t* table,
                                                                     const std::uint8_t* in,
                                                                     std::uint8_t* out, int n) {
  const __mmask64 mask = n >= 64 ? ~__mmask64{0} : ((__mmask64{1} << n) - 1);
  const __m512i t = _mm512_load_si512(table);
  const __m512i idx = _mm512_maskz_loadu_epi8(mask, in);
  _mm512_mask_storeu_epi8(out, mask, _mm512_permutexvar_epi8(idx, t));
}
#pragma GCC diagnostic pop

bool has_vbmi() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw");
}
#endif

}  // namespace

const char* RowMapper::implementation() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (has_vbmi()) return "avx512vbmi";
#endif
#if defined(__x86_64__) && defined(__SSSE3__)
  return "ssse3";
#else
  return "scalar";
#endif
}

std::vector<const char*> RowMapper::available() {
  std::vector<const char*> out{"scalar"};
#if defined(__x86_64__) && defined(__SSSE3__)
  out.push_back("ssse3");
#endif
#if defined(__x86_64__) && defined(__GNUC__)
  if (has_vbmi()) out.push_back("avx512vbmi");
#endif
  return out;
}

RowMapper::RowMapper(const Symmetry& g, int squares, const char* implementation)
    : squares_(squares), fn_(map_scalar) {
  for (int s = 0; s < squares; ++s)
    table_[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(g(s));
  const std::string want = implementation ? implementation : RowMapper::implementation();
#if defined(__x86_64__) && defined(__SSSE3__)
  if (want == "ssse3") fn_ = map_ssse3;
#endif
#if defined(__x86_64__) && defined(__GNUC__)
  if (want == "avx512vbmi" && has_vbmi()) fn_ = map_vbmi;
#endif
}

}  // namespace knightstour
