#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/board/square.hpp"
#include "knightstour/report/reports.hpp"
#include "report_text.hpp"

namespace knightstour {

Report report_of(const Plan& resolved) {
  using report_text::format;
  const Request& job = resolved.request();
  const PrefixPlan& plan = resolved.prefixes();
  Report out;
  std::string head = format("# %s, %s tours, split depth %d, prefix rules %s: %zu prefixes",
                            job.board.name().c_str(), job.mode.closed ? "closed" : "open",
                            resolved.split_depth(), job.mode.prefix_rules().c_str(), plan.size());
  if (job.shard.count > 1)
    head += format(" (listing shard %d of %d)", job.shard.index, job.shard.count);
  out.lines = {head, "# id\tsquares"};
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (!resolved.in_shard(id)) continue;
    const auto p = plan[id];
    const auto name = path_name(job.board, p.data(), static_cast<int>(p.size()));
    list.push_back({{"id", id}, {"squares", name}});
    out.lines.push_back(std::to_string(id) + "\t" + name);
  }
  nlohmann::json j{{"board", job.board.name()},
                   {"split_depth", resolved.split_depth()},
                   {"prefix_rules", job.mode.prefix_rules()},
                   {"closed_only", job.mode.closed},
                   {"prefixes_in_plan", plan.size()},
                   {"prefixes", list}};
  out.json = j.dump();
  out.stamped = false;
  return out;
}

}  // namespace knightstour
