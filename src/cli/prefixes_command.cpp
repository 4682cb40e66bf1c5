#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/report/reports.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {

int prefixes_command(int argc, char** argv) {
  auto options =
      command_options("prefixes", "List the work units (prefixes) a run splits the search into",
                      "BOARD (--start SQ | --prefix SQ,... | --all-starts) [--split-depth D]",
                      "board", "Board: RxC or a side");
  add_job_options(options, /*with_caps=*/false);
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  const JobOptions parsed = job_options_from(result);
  const Plan resolved =
      resolve(parsed.request, parsed.threads > 0 ? parsed.threads : default_threads());
  return print_report(report_of(resolved), result.count("json") > 0);
}

}  // namespace knightstour::cli
