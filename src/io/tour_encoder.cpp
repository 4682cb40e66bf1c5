#include "knightstour/io/tour_encoder.hpp"

#include <charconv>

#include "knightstour/board/square.hpp"
#include "knightstour/io/npy.hpp"

namespace knightstour {

TourEncoder::TourEncoder(BoardShape shape, TourFormat format)
    : shape_(shape),
      format_(format),
      item_size_(npy_item_size(shape.squares())),
      number_width_(static_cast<int>(std::to_string(shape.squares()).size())) {
  if (format_ == TourFormat::text && shape.squares() <= Board::kMaxSquares) {
    for (std::int64_t s = 0; s < shape.squares(); ++s) {
      names_.push_back(
          square_name(static_cast<int>(s / shape.cols), static_cast<int>(s % shape.cols)));
    }
  }
}

std::string TourEncoder::header(std::uint64_t rows) const {
  if (format_ != TourFormat::npy) return {};
  return npy_header({rows, static_cast<std::uint64_t>(shape_.squares()), item_size_});
}

std::size_t TourEncoder::header_size() const {
  return format_ == TourFormat::npy ? kNpyHeaderSize : 0;
}

void TourEncoder::append(const std::uint8_t* tour, std::string& out) const {
  append_any(tour, out);
}
void TourEncoder::append(const std::uint32_t* tour, std::string& out) const {
  append_any(tour, out);
}

template <class Square>
void TourEncoder::append_any(const Square* tour, std::string& out) const {
  const auto n = static_cast<std::size_t>(shape_.squares());
  switch (format_) {
    case TourFormat::npy: {
      if (item_size_ == 1 && sizeof(Square) == 1) {
        out.append(reinterpret_cast<const char*>(tour), n);
        return;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const auto v = static_cast<std::uint32_t>(tour[i]);
        for (int b = 0; b < item_size_; ++b) out += static_cast<char>((v >> (8 * b)) & 0xff);
      }
      return;
    }
    case TourFormat::text: {
      for (std::size_t i = 0; i < n; ++i) {
        if (i) out += ' ';
        if (!names_.empty()) {
          out += names_[tour[i]];
        } else {
          const auto s = static_cast<std::int64_t>(tour[i]);
          out += square_name(static_cast<int>(s / shape_.cols), static_cast<int>(s % shape_.cols));
        }
      }
      out += '\n';
      return;
    }
    case TourFormat::board: {
      // move number of each square, printed rank by rank from the top
      std::vector<std::uint32_t> order(n);
      for (std::size_t i = 0; i < n; ++i)
        order[static_cast<std::size_t>(tour[i])] = static_cast<std::uint32_t>(i + 1);
      char number[16];
      for (int r = shape_.rows - 1; r >= 0; --r) {
        for (int c = 0; c < shape_.cols; ++c) {
          const auto [end, ec] = std::to_chars(
              number, number + sizeof number,
              order[static_cast<std::size_t>(r) * static_cast<std::size_t>(shape_.cols) +
                    static_cast<std::size_t>(c)]);
          (void)ec;
          const auto len = static_cast<int>(end - number);
          if (c) out += ' ';
          out.append(static_cast<std::size_t>(number_width_ - len), ' ');
          out.append(number, static_cast<std::size_t>(len));
        }
        out += '\n';
      }
      out += '\n';
      return;
    }
  }
}

}  // namespace knightstour
