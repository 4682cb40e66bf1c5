#include "pictures.hpp"

#include <filesystem>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_picture.hpp"

namespace knightstour::cli {

void add_picture_options(cxxopts::Options& options) {
  options.add_options("Output")("svg", "Also draw the tour into this SVG file",
                                cxxopts::value<std::string>())(
      "png", "Also draw the tour into this PNG file (the same picture)",
      cxxopts::value<std::string>());
}

PictureFiles picture_files(const cxxopts::ParseResult& result, BoardShape shape) {
  PictureFiles files;
  for (const auto& [option, file] : {std::pair{"svg", &files.svg}, std::pair{"png", &files.png}}) {
    if (!result.count(option)) continue;
    *file = result[option].as<std::string>();
    if (shape.squares() > kMaxPictureSquares) {
      throw UsageError(std::string("--") + option + " draws boards of at most " +
                       with_commas(kMaxPictureSquares) + " squares; " + shape.name() + " has " +
                       with_commas(static_cast<std::uint64_t>(shape.squares())));
    }
    const std::filesystem::path parent = std::filesystem::path(*file).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent)) {
      throw UsageError(std::string("--") + option + " " + *file + ": no such directory " +
                       parent.string());
    }
  }
  return files;
}

void write_pictures(const PictureFiles& files, BoardShape shape,
                    const std::vector<std::uint32_t>& tour) {
  if (!files.svg.empty()) write_file_atomically(files.svg, tour_svg(shape, tour));
  if (!files.png.empty()) write_file_atomically(files.png, tour_png(shape, tour));
}

std::string picture_lines(const PictureFiles& files) {
  std::string lines;
  if (!files.svg.empty()) lines += "svg        " + files.svg + "\n";
  if (!files.png.empty()) lines += "png        " + files.png + "\n";
  return lines;
}

}  // namespace knightstour::cli
