#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"
#include "knightstour/io/tour_format.hpp"

namespace knightstour {

// Turns tours (square indices in visit order) into the bytes of a tour file format.
// Works for boards of any size (find writes huge boards); squares are 32-bit here.
class TourEncoder {
 public:
  TourEncoder(BoardShape shape, TourFormat format);

  // Appends one tour of shape.squares() squares.
  void append(const std::uint8_t* tour, std::string& out) const;
  void append(const std::uint32_t* tour, std::string& out) const;

  // The file's first bytes (the .npy header for `rows` tours; nothing for text formats).
  std::string header(std::uint64_t rows) const;
  std::size_t header_size() const;

 private:
  template <class Square>
  void append_any(const Square* tour, std::string& out) const;

  BoardShape shape_;
  TourFormat format_;
  int item_size_;
  int number_width_;
  std::vector<std::string> names_;  // square names, for boards up to 64 squares
};

}  // namespace knightstour
