#include "cli_options.hpp"
#include "commands.hpp"
#include "count_summary.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/run_count.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

// The command line as a CountRequest; what it leaves out stays empty (a resume fills it from
// the run directory). Every value is checked here; which method may take it, in run_count.
CountRequest parse_count_request(const cxxopts::ParseResult& result) {
  CountRequest r;
  // Only a resume may leave out the board (the run directory has it).
  if (result.count("board") || !result.count("resume")) {
    r.shape = parse_board_shape(board_argument(result));
  }
  const bool has_start = result.count("start") > 0;
  const bool has_prefix = result.count("prefix") > 0;
  if (result.count("all-starts")) {
    if (has_start || has_prefix) {
      throw UsageError("--all-starts cannot be combined with --start or --prefix");
    }
    r.all_starts = true;
  }
  if ((has_start || has_prefix) && !r.shape) {
    throw UsageError("--start and --prefix need the BOARD (e.g. knightstour count 6x6 --start a1)");
  }
  if (has_prefix) {
    const Board board(*r.shape);  // a prefix is the enumerator's: at most 64 squares
    for (int s : parse_square_list(board, result["prefix"].as<std::string>(), "prefix")) {
      r.prefix.push_back(s);
    }
  }
  if (has_start) {
    const RowCol rc = parse_row_col(*r.shape, result["start"].as<std::string>(), "start square");
    const std::int64_t start = std::int64_t{rc.row} * r.shape->cols + rc.col;
    if (has_prefix && r.prefix.front() != start) {
      throw UsageError("--prefix must begin with the --start square");
    }
    if (!has_prefix) r.prefix = {start};
  }
  if (result.count("closed")) r.closed = true;
  if (result.count("method")) r.method = parse_method(result["method"].as<std::string>());
  if (result.count("threads")) {
    r.threads = parse_int("threads", result["threads"].as<std::string>(), 1, 4096);
  }
  if (result.count("time-limit")) {
    r.caps.time_limit = parse_seconds("time-limit", result["time-limit"].as<std::string>());
    if (r.caps.time_limit <= 0) throw UsageError("--time-limit must be more than 0 seconds");
  }
  if (result.count("max-nodes")) {
    r.caps.max_nodes = parse_count("max-nodes", result["max-nodes"].as<std::string>());
    if (r.caps.max_nodes == 0) throw UsageError("--max-nodes must be at least 1");
  }
  if (result.count("max-tours")) {
    r.caps.max_tours = parse_count("max-tours", result["max-tours"].as<std::string>());
    if (r.caps.max_tours == 0) throw UsageError("--max-tours must be at least 1");
  }
  r.progress_seconds = parse_seconds("progress", result["progress"].as<std::string>());
  if (result.count("run-dir")) r.run_dir = result["run-dir"].as<std::string>();
  r.resume = result.count("resume") > 0;
  if (r.resume && !r.run_dir) throw UsageError("--resume needs --run-dir DIR");
  r.provenance = provenance();
  if (result.count("algorithm")) {
    r.algorithm = parse_algorithm(result["algorithm"].as<std::string>());
  }
  r.no_symmetry = result.count("no-symmetry") > 0;
  if (result.count("split-depth")) {
    r.split_depth = parse_int("split-depth", result["split-depth"].as<std::string>(), 0, 1 << 20);
  }
  if (result.count("shard-count") || result.count("shard-index")) {
    Shard shard;
    shard.count = parse_int("shard-count", result["shard-count"].as<std::string>(), 1, 1 << 24);
    shard.index = parse_int("shard-index", result["shard-index"].as<std::string>(), 0, 1 << 24);
    r.shard = shard;
  }
  if (result.count("memory")) r.memory = parse_size("memory", result["memory"].as<std::string>());
  if (result.count("spill-dir")) r.spill_dir = result["spill-dir"].as<std::string>();
  if (result.count("checkpoint")) {
    r.checkpoint_seconds = parse_seconds("checkpoint", result["checkpoint"].as<std::string>());
  }
  return r;
}

}  // namespace

int count_command(int argc, char** argv) {
  auto options = command_options(
      "count", "Count every knight's tour from a start square (exactly, on all cores)",
      "BOARD (--start SQ | --prefix SQ,SQ,... | --all-starts) [--closed] [options]", "board",
      "Board: RxC or a side");
  add_job_options(options);
  options.add_options("Method")(
      "method",
      "auto (default): the faster method for the job (see docs/cli.md); dfs: the enumerator, "
      "which visits every tour (up to 64 squares); frontier: counts classes of partial paths "
      "without visiting tours (any length, shorter side at most 8)",
      cxxopts::value<std::string>())(
      "memory",
      "frontier: bytes the classes may hold, e.g. 16G (default: half the memory available at "
      "the start)",
      cxxopts::value<std::string>())(
      "spill-dir",
      "frontier: where classes past --memory go, in passes (default: spill/ in --run-dir, "
      "else a new folder in $TMPDIR or /tmp; removed at the end; 'none': stop at the budget)",
      cxxopts::value<std::string>());
  options.add_options("Run directory")(
      "run-dir",
      "Keep the run in DIR (manifest.json; the enumerator journals each finished prefix, the "
      "frontier method saves checkpoints) so that --resume continues it",
      cxxopts::value<std::string>())("resume", "Continue the run in --run-dir where it stopped")(
      "checkpoint",
      "frontier: save the classes to --run-dir at the first step boundary after this long "
      "(seconds, or 10m, 1h; default 10m)",
      cxxopts::value<std::string>());
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  const CountRequest request = parse_count_request(result);
  install_stop_signal_handlers();
  const CountResult counted = run_count(request);
  return print_count(counted, result.count("json") > 0);
}

}  // namespace knightstour::cli
