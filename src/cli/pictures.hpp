#pragma once

#include <cstdint>
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour::cli {

// The pictures of a tour a command was asked for: --svg FILE and --png FILE (find, show).
struct PictureFiles {
  std::string svg;  // "" when not asked
  std::string png;
  bool any() const { return !svg.empty() || !png.empty(); }
};

// Adds --svg and --png to a command's Output options.
void add_picture_options(cxxopts::Options& options);
// The files asked for, refused (UsageError) when the board is too large to draw or a file's
// folder does not exist, so that a command refuses before it prints anything.
PictureFiles picture_files(const cxxopts::ParseResult& result, BoardShape shape);
// Draws the tour into each file asked for (atomically); one line each, "svg  FILE".
void write_pictures(const PictureFiles& files, BoardShape shape,
                    const std::vector<std::uint32_t>& tour);
// The lines naming the files written, for the command's summary.
std::string picture_lines(const PictureFiles& files);

}  // namespace knightstour::cli
