#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace knightstour {

enum class TourFormat {
  npy,    // NumPy .npy: an unsigned array of shape (tours, R*C), each row the squares in order
  text,   // one tour per line: square names separated by spaces
  board,  // each tour as the grid of move numbers 1..R*C (rank R on top), a blank line after
};

enum class Compression { none, zstd };

std::string to_string(TourFormat format);
std::string to_string(Compression compression);
TourFormat parse_tour_format(std::string_view text);   // throws UsageError
Compression parse_compression(std::string_view text);  // throws UsageError

// ".npy", ".txt", ".board" (+ ".zst" when compressed).
std::string file_extension(TourFormat format, Compression compression);

// Bytes per square index in .npy files: the smallest unsigned type that holds squares - 1.
int npy_item_size(std::int64_t squares);

}  // namespace knightstour
