#include "cli_options.hpp"
#include "commands.hpp"
#include "count_csv.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/run_count.hpp"
#include "knightstour/report/reports.hpp"
#include "mpi_world.hpp"
#include "provenance.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {

int count_command(int argc, char** argv) {
  auto options = command_options(
      "count", "Count every knight's tour from a start square (exactly, on all cores)",
      "BOARD (--start SQ | --prefix SQ,SQ,... | --all-starts) [--closed] [options]", "board",
      "Board: RxC or a side");
  add_job_options(options);
  add_count_options(options);
  options.add_options("Search")(
      "up-to-symmetry",
      "Also count essentially different tours: classes under the board's mirror images and "
      "rotations, with and without reversal (enumerator only; looks at every tour, slower)");
  options.add_options("Method")(
      "no-mirror-fold",
      "frontier: keep each class apart from its mirror image (about 1.6x the classes and "
      "time): the same counts summed from other classes, a second run to check a new count "
      "by")("spill-dir",
            "frontier: where classes past --memory go, in passes (default: spill/ in --run-dir, "
            "else a new folder in $TMPDIR or /tmp; removed at the end; 'none': stop at the budget)",
            cxxopts::value<std::string>())(
      "modulus",
      "frontier: count modulo this prime (below 2^62): each count printed is its residue, "
      "and a class holds one 64-bit word whatever the count's size",
      cxxopts::value<std::string>())(
      "grid",
      "frontier, open, --all-starts: how the tours from each square are counted: auto "
      "(default), tails (pinned sweeps sharing a prefix), pass (a pass back over one sweep), "
      "end-pairs (one sweep per class of (start, end) squares: independent units that "
      "--shard-count shares out; gives the start x end table)",
      cxxopts::value<std::string>());
  options.add_options("Run directory")(
      "run-dir",
      "Keep the run in DIR (manifest.json; the enumerator journals each finished prefix, the "
      "frontier method saves checkpoints) so that --resume continues it",
      cxxopts::value<std::string>())(
      "resume",
      "Continue the run in --run-dir where it stopped (a finished run: print its counts)")(
      "checkpoint",
      "frontier: save the classes to --run-dir at the first step boundary after this long "
      "(seconds, or 10m, 1h; default 10m)",
      cxxopts::value<std::string>());
  add_csv_option(options);
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  require_shard_index(result);
  const std::optional<std::string> csv = csv_file(result);
  CountRequest request = count_request_from(result);
  request.ranks = mpi_ranks();
  install_stop_signal_handlers();
  const CountResult counted = run_count(request);
  // Over MPI ranks every rank holds the counts; the file is rank 0's to write.
  if (csv && mpi_rank() == 0) write_count_csv(counted, *csv);
  return print_report(report_of(counted), result.count("json") > 0);
}

}  // namespace knightstour::cli
