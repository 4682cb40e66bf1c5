#include "knightstour/io/tour_format.hpp"

#include "knightstour/base/errors.hpp"

namespace knightstour {

std::string to_string(TourFormat format) {
  switch (format) {
    case TourFormat::npy:
      return "npy";
    case TourFormat::text:
      return "text";
    case TourFormat::board:
      return "board";
  }
  return "?";
}

std::string to_string(Compression compression) {
  return compression == Compression::zstd ? "zstd" : "none";
}

TourFormat parse_tour_format(std::string_view text) {
  if (text == "npy") return TourFormat::npy;
  if (text == "text") return TourFormat::text;
  if (text == "board") return TourFormat::board;
  throw UsageError("unknown format '" + std::string(text) + "': expected npy, text or board");
}

Compression parse_compression(std::string_view text) {
  if (text == "zstd") return Compression::zstd;
  if (text == "none") return Compression::none;
  throw UsageError("unknown compression '" + std::string(text) + "': expected zstd or none");
}

std::string file_extension(TourFormat format, Compression compression) {
  std::string ext = format == TourFormat::npy    ? ".npy"
                    : format == TourFormat::text ? ".txt"
                                                 : ".board";
  if (compression == Compression::zstd) ext += ".zst";
  return ext;
}

int npy_item_size(std::int64_t squares) {
  if (squares <= 256) return 1;
  if (squares <= 65536) return 2;
  return 4;
}

}  // namespace knightstour
