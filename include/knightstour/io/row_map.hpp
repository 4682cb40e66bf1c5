#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "knightstour/board/symmetry.hpp"

namespace knightstour {

// Maps a row of square indices through a board symmetry, as fast as the CPU allows: one
// AVX-512 VBMI byte permute when the CPU has it (checked at run time), SSSE3 shuffles when
// compiled for them, else a table lookup per square.
// Reads and may write up to 64 bytes at `in` / `out` (callers keep 64-byte buffers).
class RowMapper {
 public:
  // `implementation` forces one of available() (tests compare them); default: the fastest.
  RowMapper(const Symmetry& g, int squares, const char* implementation = nullptr);
  void operator()(const std::uint8_t* in, std::uint8_t* out) const {
    fn_(table_.data(), in, out, squares_);
  }

  // Which implementation runs here by default: "avx512vbmi", "ssse3" or "scalar".
  static const char* implementation();
  // Every implementation this build and CPU can run.
  static std::vector<const char*> available();

 private:
  using Fn = void (*)(const std::uint8_t* table, const std::uint8_t* in, std::uint8_t* out, int n);
  alignas(64) std::array<std::uint8_t, 64> table_{};
  int squares_;
  Fn fn_;
};

}  // namespace knightstour
