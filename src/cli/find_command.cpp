#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/find/find.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_encoder.hpp"
#include "knightstour/io/tour_file_writer.hpp"
#include "knightstour/io/tour_svg.hpp"
#include "output.hpp"

namespace knightstour::cli {

int find_command(int argc, char** argv) {
  auto options = command_options(
      "find", "Find one knight's tour, on a board of any size",
      "BOARD [--start SQ] [--closed] [--seed N] [--method warnsdorff|backtrack] [options]", "board",
      "Board: RxC or a side (any size up to 10^8 squares)");
  options.add_options("Output")("svg", "Also draw the tour into this SVG file",
                                cxxopts::value<std::string>());
  options.add_options()("start", "Start square",
                        cxxopts::value<std::string>()->default_value("a1"))(
      "closed", "A closed tour (the last square a knight move from the first)")(
      "seed", "Seed for tie-breaking; the same seed gives the same tour",
      cxxopts::value<std::string>()->default_value("0"))(
      "method",
      "warnsdorff (default: Warnsdorff's rule, repair, then exact search) or backtrack (textbook)",
      cxxopts::value<std::string>()->default_value("warnsdorff"))(
      "move-order", "backtrack's move order: cw (default), ccw, or eight rank:file steps",
      cxxopts::value<std::string>()->default_value("cw"))(
      "max-nodes",
      "Cap on search nodes (exact search, default 2*10^8) or checks (backtrack, default 10^8)",
      cxxopts::value<std::string>())("time-limit", "Stop after this many seconds",
                                     cxxopts::value<std::string>());
  options.add_options("Output")("format",
                                "board (default: the numbered grid), text (square names) or npy",
                                cxxopts::value<std::string>()->default_value("board"))(
      "out", "Write the tour to this file (npy needs it) instead of stdout",
      cxxopts::value<std::string>())("json", "Print the result, tour included, as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;

  FindRequest q;
  q.shape = parse_board_shape(board_argument(result));
  if (q.shape.squares() > kMaxFindSquares) {
    throw UsageError("board " + q.shape.name() + " has more than " + with_commas(kMaxFindSquares) +
                     " squares");
  }
  const auto rc = parse_row_col(q.shape, result["start"].as<std::string>(), "start square");
  q.start = static_cast<std::uint32_t>(static_cast<std::int64_t>(rc.row) * q.shape.cols + rc.col);
  q.closed = result.count("closed") > 0;
  q.seed = parse_count("seed", result["seed"].as<std::string>());
  const auto method = result["method"].as<std::string>();
  if (method == "warnsdorff") {
    q.method = FindMethod::warnsdorff;
  } else if (method == "backtrack") {
    q.method = FindMethod::backtrack;
  } else {
    throw UsageError("unknown method '" + method + "': expected warnsdorff or backtrack");
  }
  q.order = parse_move_order(result["move-order"].as<std::string>());
  if (result.count("max-nodes")) {
    q.max_nodes = parse_count("max-nodes", result["max-nodes"].as<std::string>());
    if (q.max_nodes == 0) throw UsageError("--max-nodes must be at least 1");
  }
  double time_limit = 0;
  if (result.count("time-limit")) {
    time_limit = parse_seconds("time-limit", result["time-limit"].as<std::string>());
    if (time_limit <= 0) throw UsageError("--time-limit must be more than 0 seconds");
  }
  const auto format = parse_tour_format(result["format"].as<std::string>());
  const bool to_file = result.count("out") > 0;
  if (format == TourFormat::npy && !to_file) throw UsageError("--format npy needs --out FILE");
  if (result.count("svg") && q.shape.squares() > kMaxSvgSquares) {
    throw UsageError("--svg draws boards of at most " + with_commas(kMaxSvgSquares) + " squares; " +
                     q.shape.name() + " has " +
                     with_commas(static_cast<std::uint64_t>(q.shape.squares())));
  }
  const bool json = result.count("json") > 0;

  install_stop_signal_handlers();
  StopControl stop(Caps{0, 0, time_limit});
  const FindResult r = find_tour(q, &stop);
  const std::string kind = q.closed ? "closed" : "open";
  const std::string from = square_name(rc.row, rc.col);
  if (r.outcome == FindResult::Outcome::found && to_file) {
    TourFileWriter writer(result["out"].as<std::string>(), q.shape, format, Compression::none);
    writer.add(r.tour.data());
    writer.finish();
  }
  if (r.outcome == FindResult::Outcome::found && result.count("svg")) {
    write_file_atomically(result["svg"].as<std::string>(), tour_svg(q.shape, r.tour));
  }
  if (json) {
    nlohmann::json j{{"board", q.shape.name()},
                     {"rows", q.shape.rows},
                     {"cols", q.shape.cols},
                     {"start", from},
                     {"closed", q.closed},
                     {"method", method},
                     {"seed", q.seed},
                     {"outcome", r.outcome == FindResult::Outcome::found        ? "found"
                                 : r.outcome == FindResult::Outcome::impossible ? "impossible"
                                                                                : "stopped"},
                     {"how", r.how},
                     {"work", r.work},
                     {"seconds", r.seconds}};
    if (to_file) {
      j["out"] = result["out"].as<std::string>();  // the tour is in the file
    } else {
      j["tour"] = r.tour;
    }
    std::cout << j.dump() << '\n';
  }
  switch (r.outcome) {
    case FindResult::Outcome::found: {
      if (!json && !to_file) {
        std::string text;
        if (format == TourFormat::board) {
          text = tour_grid(q.shape, r.tour);
        } else {
          TourEncoder(q.shape, format).append(r.tour.data(), text);
        }
        std::fwrite(text.data(), 1, text.size(), stdout);
      }
      std::fprintf(stderr, "found %s %s tour from %s on %s in %.3f s: %s; checked\n",
                   q.closed ? "a" : "an", kind.c_str(), from.c_str(), q.shape.name().c_str(),
                   r.seconds, r.how.c_str());
      return kExitOk;
    }
    case FindResult::Outcome::impossible:
      if (!json)
        std::printf("no %s tour from %s on %s: %s\n", kind.c_str(), from.c_str(),
                    q.shape.name().c_str(), r.how.c_str());
      return kExitNoTour;
    case FindResult::Outcome::stopped:
      std::fprintf(stderr, "knightstour: no %s tour found from %s on %s (%s%s)\n", kind.c_str(),
                   from.c_str(), q.shape.name().c_str(), r.how.c_str(),
                   stop_signal_received() ? "; interrupted" : "");
      return kExitStopped;
  }
  return kExitFailure;
}

}  // namespace knightstour::cli
