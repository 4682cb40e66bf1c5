#include <optional>

#include "cli_options.hpp"
#include "commands.hpp"
#include "frontier_count.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/board.hpp"
#include "knightstour/frontier/frontier_run_dir.hpp"
#include "knightstour/run/job_runner.hpp"
#include "run_summary.hpp"

namespace knightstour::cli {

int count_command(int argc, char** argv) {
  auto options = command_options(
      "count", "Count every knight's tour from a start square (exactly, on all cores)",
      "BOARD (--start SQ | --prefix SQ,SQ,... | --all-starts) [options]", "board",
      "Board: RxC or a side");
  add_job_options(options);
  options.add_options("Run directory")(
      "run-dir",
      "Journal each finished prefix to DIR (manifest.json, journal-<shard>.tsv); frontier: "
      "finished sweeps and checkpoints (frontier.json, checkpoint.bin)",
      cxxopts::value<std::string>())("resume", "Continue the run in --run-dir where it stopped")(
      "checkpoint-every",
      "frontier: save the classes to --run-dir at the first step boundary after this long "
      "(seconds, or 10m, 1h)",
      cxxopts::value<std::string>()->default_value("10m"));
  options.add_options("Method")(
      "method",
      "dfs: visit every tour (the default up to 64 squares). frontier: count classes of "
      "partial paths without visiting tours (any length, shorter side at most 8; the "
      "default past 64 squares)",
      cxxopts::value<std::string>())("memory",
                                     "frontier: bytes the classes may hold, e.g. 16G (default: "
                                     "half the memory available at the start)",
                                     cxxopts::value<std::string>())(
      "spill-dir",
      "frontier: where classes past --memory go, in passes (default: a new folder in "
      "$TMPDIR or /tmp, removed at the end; 'none': stop at the budget instead)",
      cxxopts::value<std::string>());
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  // A frontier run directory is resumed by the frontier method; an enumerator's by the
  // enumerator, whose manifest supplies what the command line leaves out, the board included.
  if (result.count("resume") && result.count("run-dir") &&
      FrontierRunDir::holds_run(result["run-dir"].as<std::string>())) {
    return frontier_count(result);
  }
  const auto resumed = manifest_to_resume(result, "run-dir");
  const BoardShape shape = resumed && !result.count("board")
                               ? BoardShape{resumed->rows, resumed->cols}
                               : parse_board_shape(board_argument(result));
  bool frontier = shape.squares() > Board::kMaxSquares;
  if (result.count("method")) {
    const auto method = result["method"].as<std::string>();
    if (method != "dfs" && method != "frontier") {
      throw UsageError("--method expects dfs or frontier, not '" + method + "'");
    }
    if (method == "dfs" && frontier) {
      throw UsageError("board " + shape.name() + " has " + std::to_string(shape.squares()) +
                       " squares; --method dfs counts at most " +
                       std::to_string(Board::kMaxSquares) +
                       " (--method frontier counts boards with a shorter side of at most 8)");
    }
    frontier = method == "frontier";
  }
  if (frontier) return frontier_count(result);
  if (result.count("memory")) throw UsageError("--memory applies to --method frontier only");
  if (result.count("spill-dir")) throw UsageError("--spill-dir applies to --method frontier only");
  if (result["checkpoint-every"].count())
    throw UsageError("--checkpoint-every applies to --method frontier only");
  const JobOptions parsed = job_options_from(result, resumed ? &*resumed : nullptr);
  const JobRequest job = job_request(Command::count, parsed, result, "run-dir");

  install_stop_signal_handlers();
  const JobOutcome outcome = run_job(job);
  return print_summary(CountSummary{outcome.request, outcome.report, outcome.dir.string()},
                       parsed.json);
}

}  // namespace knightstour::cli
