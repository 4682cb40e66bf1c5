#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/count/merge.hpp"
#include "knightstour/report/reports.hpp"
#include "provenance.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {

int merge_command(int argc, char** argv) {
  auto options = command_options(
      "merge", "Combine shard run directories into one, checking that they cover every prefix once",
      "DIR... --out DIR", "dirs", "Shard run directories");
  options.add_options()("out", "The merged run directory (new)", cxxopts::value<std::string>());
  options.add_options()("skip-tour-check",
                        "Check each input's manifest, journal and file sizes, not every tour "
                        "(faster; by default every tour is checked as verify does)");
  options.add_options("Output")("json", "Print the result as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "dirs", argc, argv, result)) return kExitOk;
  MergeRequest request;  // what is missing, merge() refuses by its check()
  if (result.count("dirs")) {
    for (const auto& d : result["dirs"].as<std::vector<std::string>>())
      request.inputs.emplace_back(d);
  }
  if (result.count("out")) request.out = result["out"].as<std::string>();
  request.options.read_tours = !result.count("skip-tour-check");
  request.options.provenance = provenance();
  return print_report(report_of(merge(request)), result.count("json") > 0);
}

}  // namespace knightstour::cli
