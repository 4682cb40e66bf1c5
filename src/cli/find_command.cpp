#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli_options.hpp"
#include "commands.hpp"
#include "json_counts.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/find/find.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_encoder.hpp"
#include "knightstour/io/tour_file_writer.hpp"
#include "knightstour/report/words.hpp"
#include "pictures.hpp"

namespace knightstour::cli {

namespace {

cxxopts::Options find_options() {
  auto options = command_options(
      "find", "Find one knight's tour, on a board of any size",
      "BOARD [--start SQ] [--closed] [--seed N] [--method warnsdorff|backtrack] [options]", "board",
      "Board: RxC or a side (any size up to 10^8 squares)");
  add_picture_options(options);
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
  return options;
}

// find's command line, parsed and checked: the search and where its tour goes.
struct FindArguments {
  FindRequest q;
  std::string method;  // as given: warnsdorff or backtrack
  std::string from;    // the start square's name
  double time_limit = 0;
  TourFormat format = TourFormat::board;
  std::optional<std::string> out;
  PictureFiles pictures;
  bool json = false;
};

FindArguments find_arguments(const cxxopts::ParseResult& result) {
  FindArguments a;
  FindRequest& q = a.q;
  q.shape = parse_board_shape(board_argument(result));
  const auto rc = parse_row_col(q.shape, result["start"].as<std::string>(), "start square");
  q.start = static_cast<std::uint32_t>(static_cast<std::int64_t>(rc.row) * q.shape.cols + rc.col);
  a.from = square_name(rc.row, rc.col);
  q.closed = result.count("closed") > 0;
  q.seed = parse_count("seed", result["seed"].as<std::string>());
  a.method = result["method"].as<std::string>();
  if (a.method == "warnsdorff") {
    q.method = FindMethod::warnsdorff;
  } else if (a.method == "backtrack") {
    q.method = FindMethod::backtrack;
  } else {
    throw UsageError("unknown method '" + a.method + "': expected warnsdorff or backtrack");
  }
  q.order = parse_move_order(result["move-order"].as<std::string>());
  if (result.count("max-nodes")) {
    q.max_nodes = parse_count("max-nodes", result["max-nodes"].as<std::string>());
    if (q.max_nodes == 0) throw UsageError("--max-nodes must be at least 1");
  }
  if (result.count("time-limit")) {
    a.time_limit = parse_seconds("time-limit", result["time-limit"].as<std::string>());
    if (a.time_limit <= 0) throw UsageError("--time-limit must be more than 0 seconds");
  }
  a.format = parse_tour_format(result["format"].as<std::string>());
  if (result.count("out")) a.out = result["out"].as<std::string>();
  if (a.format == TourFormat::npy && !a.out) throw UsageError("--format npy needs --out FILE");
  a.pictures = picture_files(result, q.shape);
  a.json = result.count("json") > 0;
  return a;
}

void print_find_json(const FindArguments& a, const FindResult& r) {
  nlohmann::json j{{"board", a.q.shape.name()},
                   {"rows", a.q.shape.rows},
                   {"cols", a.q.shape.cols},
                   {"start", a.from},
                   {"closed", a.q.closed},
                   {"method", a.method},
                   {"seed", a.q.seed},
                   {"outcome", r.outcome == FindResult::Outcome::found        ? "found"
                               : r.outcome == FindResult::Outcome::impossible ? "impossible"
                                                                              : "stopped"},
                   {"how", r.how},
                   {"work", r.work},
                   {"seconds", r.seconds}};
  if (a.out) {
    j["out"] = *a.out;  // the tour is in the file
  } else {
    j["tour"] = r.tour;
  }
  print_json_object(j);
}

}  // namespace

int find_command(int argc, char** argv) {
  auto options = find_options();
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  const FindArguments a = find_arguments(result);
  const FindRequest& q = a.q;

  install_stop_signal_handlers();
  StopControl stop(Caps{0, 0, a.time_limit});
  const FindResult r = find_tour(q, &stop);
  const std::string kind = q.closed ? "closed" : "open";
  if (r.outcome == FindResult::Outcome::found && a.out) {
    TourFileWriter writer(*a.out, q.shape, a.format, Compression::none);
    writer.add(r.tour.data());
    writer.finish();
  }
  if (r.outcome == FindResult::Outcome::found) write_pictures(a.pictures, q.shape, r.tour);
  if (a.json) print_find_json(a, r);
  switch (r.outcome) {
    case FindResult::Outcome::found: {
      if (!a.json && !a.out) {
        std::string text;
        if (a.format == TourFormat::board) {
          text = tour_grid(q.shape, r.tour);
        } else {
          TourEncoder(q.shape, a.format).append(r.tour.data(), text);
        }
        std::fwrite(text.data(), 1, text.size(), stdout);
      }
      std::fprintf(stderr, "found %s %s tour from %s on %s in %.3f s: %s; checked\n",
                   q.closed ? "a" : "an", kind.c_str(), a.from.c_str(), q.shape.name().c_str(),
                   r.seconds, r.how.c_str());
      return kExitOk;
    }
    case FindResult::Outcome::impossible:
      if (!a.json)
        std::printf("no %s tour from %s on %s: %s\n", kind.c_str(), a.from.c_str(),
                    q.shape.name().c_str(), r.how.c_str());
      return kExitNoTour;
    case FindResult::Outcome::stopped:
      std::fprintf(stderr, "knightstour: no %s tour found from %s on %s (%s%s)\n", kind.c_str(),
                   a.from.c_str(), q.shape.name().c_str(), r.how.c_str(),
                   stop_signal_received() ? "; interrupted" : "");
      return kExitStopped;
  }
  return kExitFailure;
}

}  // namespace knightstour::cli
