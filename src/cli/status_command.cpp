#include <string>
#include <vector>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/count/run_standing.hpp"
#include "knightstour/report/reports.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {

int status_command(int argc, char** argv) {
  auto options = command_options(
      "status",
      "Where a run stands, read without writing or locking: a run directory (of either method, "
      "a merged one), or a folder of shard directories",
      "DIR [--json]", "dirs", "A run directory, or the folder holding a job's shard directories");
  options.add_options("Output")("json", "Print it as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "dirs", argc, argv, result)) return kExitOk;
  if (!result.count("dirs"))
    throw UsageError("status needs a run directory: knightstour status DIR");
  const auto dirs = result["dirs"].as<std::vector<std::string>>();
  if (dirs.size() != 1) throw UsageError("status takes one directory");
  return print_report(report_of(read_standings(dirs.front())), result.count("json") > 0);
}

}  // namespace knightstour::cli
