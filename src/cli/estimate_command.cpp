#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/stop_control.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/count/estimate.hpp"
#include "knightstour/report/reports.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {

namespace {

cxxopts::Options estimate_options() {
  auto options = command_options(
      "estimate", "Estimate the size of a count (tree nodes, tours, run time) by random sampling",
      "BOARD (--start SQ | --prefix SQ,... | --all-starts) [--walks N] [--calibrate SEC] "
      "[options]",
      "board", "Board: RxC or a side");
  options.add_options()("walks", "Knuth random walks in all",
                        cxxopts::value<std::string>()->default_value("1000000"))(
      "seed", "Seed of the walks", cxxopts::value<std::string>()->default_value("1"))(
      "calibrate",
      "Seconds of real counting to measure this machine's speed (0: skip the time estimate; "
      "default 2, or 8 with --cores-per-shard, so that a frontier job's first units finish); "
      "the frontier method's calibration holds its classes within --memory and stops there, "
      "writing nothing to disk; a row (--every-length) calibrates each board its sweeps cost "
      "about as much as",
      cxxopts::value<std::string>())(
      "cores-per-shard",
      "With --shard-count N (no --shard-index): estimate every shard and print the wall time "
      "per shard and the core-hours in all at this many cores per shard",
      cxxopts::value<std::string>());
  add_job_options(options);
  add_count_options(options);
  return options;
}

}  // namespace

int estimate_command(int argc, char** argv) {
  auto options = estimate_options();
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  // From here on, before the plan is made (seconds on a loaded machine): an interrupt then
  // ends the estimate with what it has, instead of killing it.
  install_stop_signal_handlers();

  EstimateRequest request;
  request.count = count_request_from(result);
  for (const char* name : {"walks", "seed"}) {
    if (request.walks_field.empty() && result.count(name)) request.walks_field = name;
  }
  request.walks = parse_count("walks", result["walks"].as<std::string>());
  request.seed = parse_count("seed", result["seed"].as<std::string>());
  const bool json = result.count("json") > 0;
  // Shares of a frontier job by units are priced at the mean unit: 2 s finished none of 7x7's
  // 50 (the job projected at 3.5x its CPU), 6 s one (1.15x), 12 s two (1.37x).
  const bool shards = result.count("cores-per-shard") > 0;
  request.calibrate =
      parse_seconds("calibrate", result.count("calibrate") ? result["calibrate"].as<std::string>()
                                 : shards                  ? std::string("8")
                                                           : std::string("2"));
  if (shards) {
    request.cores_per_shard =
        parse_int("cores-per-shard", result["cores-per-shard"].as<std::string>(), 1, 1 << 20);
    if (result.count("shard-index")) request.count.shard.reset();  // refused as no shard count
    if (json) throw UsageError("--cores-per-shard prints text only, not --json");
  }
  return print_report(report_of(estimate(request)), json);
}

}  // namespace knightstour::cli
