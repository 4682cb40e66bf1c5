#include <optional>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/verify.hpp"
#include "knightstour/report/reports.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {

namespace {

// verify's options, parsed: the paths and what loose files must hold.
struct VerifyArguments {
  std::vector<std::string> paths;
  VerifyOptions loose;
  bool json = false;
};

// Returns nothing when --help was given (help printed).
std::optional<VerifyArguments> verify_arguments(int argc, char** argv) {
  auto options = command_options(
      "verify",
      "Check tour files or a run directory: exit 0 valid, 4 a problem (named), 2 unreadable",
      "PATH... [--board RxC] [--closed] [--start SQ]", "paths", "Run directories or tour files");
  options.add_options("Loose files")("board",
                                     "Board of loose .npy files (text and board files, and files "
                                     "next to a manifest, tell it themselves)",
                                     cxxopts::value<std::string>())(
      "closed", "Every tour must be closed")("start", "Every tour must start on this square",
                                             cxxopts::value<std::string>());
  options.add_options("Output")("json", "Print the verdict as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "paths", argc, argv, result)) return std::nullopt;
  VerifyArguments a;  // no paths: verify() refuses by its check()
  if (result.count("paths")) a.paths = result["paths"].as<std::vector<std::string>>();
  a.json = result.count("json") > 0;
  VerifyOptions& vo = a.loose;
  if (result.count("board")) vo.board = parse_board_shape(result["board"].as<std::string>());
  vo.closed = result.count("closed") > 0;
  if (result.count("start")) {
    if (!vo.board) throw UsageError("--start needs --board");
    const auto rc = parse_row_col(*vo.board, result["start"].as<std::string>(), "start square");
    vo.start = static_cast<std::uint32_t>(rc.row * vo.board->cols + rc.col);
  }
  return a;
}

}  // namespace

int verify_command(int argc, char** argv) {
  const std::optional<VerifyArguments> a = verify_arguments(argc, argv);
  if (!a) return kExitOk;
  return print_report(report_of(verify({a->paths, a->loose})), a->json);
}

}  // namespace knightstour::cli
