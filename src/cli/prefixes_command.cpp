#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "commands.hpp"
#include "json_counts.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/plan/plan.hpp"

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
  const Request& job = resolved.request();
  const PrefixPlan& plan = resolved.prefixes();
  const bool json = result.count("json") > 0;
  nlohmann::json list = nlohmann::json::array();
  if (!json) {
    std::printf("# %s, %s tours, split depth %d, prefix rules %s: %zu prefixes",
                job.board.name().c_str(), job.mode.closed ? "closed" : "open",
                resolved.split_depth(), job.mode.prefix_rules().c_str(), plan.size());
    if (job.shard.count > 1)
      std::printf(" (listing shard %d of %d)", job.shard.index, job.shard.count);
    std::printf("\n# id\tsquares\n");
  }
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (!resolved.in_shard(id)) continue;
    const auto p = plan[id];
    const auto name = path_name(job.board, p.data(), static_cast<int>(p.size()));
    if (json) {
      list.push_back({{"id", id}, {"squares", name}});
    } else {
      std::printf("%zu\t%s\n", id, name.c_str());
    }
  }
  if (json) {
    nlohmann::json j{{"board", job.board.name()},
                     {"split_depth", resolved.split_depth()},
                     {"prefix_rules", job.mode.prefix_rules()},
                     {"closed_only", job.mode.closed},
                     {"prefixes_in_plan", plan.size()},
                     {"prefixes", list}};
    print_json_object(j);
  }
  return kExitOk;
}

}  // namespace knightstour::cli
