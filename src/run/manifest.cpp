#include "knightstour/run/manifest.hpp"

#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

using nlohmann::json;

std::string to_string(Command command) {
  return command == Command::enumerate ? "enumerate" : "count";
}

std::string to_string(RunStatus status) {
  return status == RunStatus::complete ? "complete" : "incomplete";
}

std::string RunManifest::to_json() const {
  json j;
  j["format"] = "knightstour-run";
  j["format_version"] = kFormatVersion;
  j["knightstour_version"] = version;
  j["git_commit"] = provenance.git_commit;
  j["command_line"] = provenance.command_line;
  j["host"] = provenance.host;
  j["cpu_model"] = provenance.cpu_model;
  j["slurm_job"] = provenance.slurm_job;
  j["command"] = to_string(command);
  j["board"] = board_name();
  j["rows"] = rows;
  j["cols"] = cols;
  j["all_starts"] = all_starts;
  j["prefix"] = prefix;
  j["closed_only"] = closed_only;
  j["algorithm"] = to_string(algorithm);
  j["prefix_rules"] = prefix_rules;
  j["split_depth"] = split_depth;
  j["shard"] = {{"index", shard.index},
                {"count", shard.count},
                {"rule", shard.rule == ShardRule::orbits ? "orbits" : "ids"}};
  if (command == Command::enumerate) {
    j["tour_format"] = to_string(tour_format.value_or(TourFormat::npy));
    j["compression"] = to_string(compression.value_or(Compression::none));
    j["part_size"] = part_size;
    j["checkpoint_seconds"] = checkpoint_seconds;
    j["sample"] = sample;
  }
  j["threads"] = threads;
  j["symmetry"] = symmetry;
  j["caps"] = {{"max_nodes", caps.max_nodes},
               {"max_tours", caps.max_tours},
               {"time_limit", caps.time_limit}};
  j["status"] = to_string(status);
  j["stop_reason"] = token(stop_reason);
  j["stop_reason_text"] = stop_reason == StopReason::none ? "" : knightstour::describe(stop_reason);
  j["totals"] = {{"prefixes_in_plan", prefixes_in_plan},
                 {"prefixes", prefixes},
                 {"prefixes_done", prefixes_done},
                 {"tours", tours},
                 {"closed_tours", closed_tours},
                 {"nodes", nodes},
                 {"tour_files", tour_files}};
  if (!inputs.empty()) {
    json list = json::array();
    for (const auto& in : inputs) {
      list.push_back({{"dir", in.dir},
                      {"shard_index", in.shard_index},
                      {"host", in.host},
                      {"slurm_job", in.slurm_job},
                      {"git_commit", in.git_commit}});
    }
    j["inputs"] = list;
  }
  j["timings"] = {{"created", created},   {"updated", updated},
                  {"seconds", seconds},   {"cpu_seconds", cpu_seconds},
                  {"sessions", sessions}, {"nodes_searched", nodes_searched}};
  return j.dump(2) + "\n";
}

RunManifest RunManifest::from_json(const std::string& text, const std::string& where) {
  RunManifest m;
  auto bad = [&](const std::string& why) {
    return FormatError(where + " is not a valid manifest: " + why);
  };
  try {
    const json j = json::parse(text);
    if (j.at("format") != "knightstour-run")
      throw FormatError(where + " is not a knightstour run manifest");
    // Version 2 added the shard rule; a version 1 manifest dealt shards by id.
    const int format_version = j.at("format_version").get<int>();
    if (format_version < 1 || format_version > kFormatVersion) {
      throw FormatError(where + ": unsupported manifest version " + j.at("format_version").dump());
    }
    m.version = j.value("knightstour_version", "");
    m.provenance = {j.value("git_commit", ""), j.value("command_line", ""), j.value("host", ""),
                    j.value("cpu_model", ""), j.value("slurm_job", "")};
    const auto command = j.at("command").get<std::string>();
    if (command == "count") {
      m.command = Command::count;
    } else if (command == "enumerate") {
      m.command = Command::enumerate;
    } else {
      throw FormatError(where + ": unknown command '" + command + "'");
    }
    m.sample = j.value("sample", std::uint64_t{0});
    if (j.contains("inputs")) {
      for (const auto& in : j.at("inputs")) {
        m.inputs.push_back({in.at("dir").get<std::string>(), in.at("shard_index").get<int>(),
                            in.value("host", ""), in.value("slurm_job", ""),
                            in.value("git_commit", "")});
      }
    }
    m.rows = j.at("rows").get<int>();
    m.cols = j.at("cols").get<int>();
    m.all_starts = j.at("all_starts").get<bool>();
    m.prefix = j.at("prefix").get<std::vector<std::string>>();
    m.closed_only = j.at("closed_only").get<bool>();
    m.algorithm = parse_algorithm(j.at("algorithm").get<std::string>());
    m.prefix_rules = j.at("prefix_rules").get<std::string>();
    m.split_depth = j.at("split_depth").get<int>();
    m.shard.index = j.at("shard").at("index").get<int>();
    m.shard.count = j.at("shard").at("count").get<int>();
    // Manifests written before shards were dealt by orbit carry no rule: they used ids.
    const auto rule = j.at("shard").value("rule", std::string("ids"));
    if (rule != "orbits" && rule != "ids") throw bad("unknown shard rule '" + rule + "'");
    m.shard.rule = rule == "orbits" ? ShardRule::orbits : ShardRule::ids;
    if (m.command == Command::enumerate) {
      m.tour_format = parse_tour_format(j.at("tour_format").get<std::string>());
      m.compression = parse_compression(j.at("compression").get<std::string>());
      m.part_size = j.at("part_size").get<std::uint64_t>();
      m.checkpoint_seconds = j.at("checkpoint_seconds").get<double>();
    }
    m.threads = j.value("threads", 0);
    m.symmetry = j.value("symmetry", true);
    const auto& caps = j.at("caps");
    m.caps.max_nodes = caps.at("max_nodes").get<std::uint64_t>();
    m.caps.max_tours = caps.at("max_tours").get<std::uint64_t>();
    m.caps.time_limit = caps.at("time_limit").get<double>();
    const auto status = j.at("status").get<std::string>();
    if (status != "complete" && status != "incomplete") throw bad("status '" + status + "'");
    m.status = status == "complete" ? RunStatus::complete : RunStatus::incomplete;
    const auto reason = stop_reason_described(j.value("stop_reason", ""));
    m.stop_reason = reason.value_or(StopReason::failure);
    const auto& t = j.at("totals");
    m.prefixes_in_plan = t.at("prefixes_in_plan").get<std::size_t>();
    m.prefixes = t.at("prefixes").get<std::size_t>();
    m.prefixes_done = t.at("prefixes_done").get<std::size_t>();
    m.tours = t.at("tours").get<std::uint64_t>();
    m.closed_tours = t.at("closed_tours").get<std::uint64_t>();
    m.nodes = t.at("nodes").get<std::uint64_t>();
    m.tour_files = t.value("tour_files", std::uint64_t{0});
    const auto& tm = j.at("timings");
    m.created = tm.at("created").get<std::string>();
    m.updated = tm.at("updated").get<std::string>();
    m.seconds = tm.at("seconds").get<double>();
    m.sessions = tm.at("sessions").get<int>();
    m.cpu_seconds = tm.value("cpu_seconds", 0.0);
    m.nodes_searched = tm.value("nodes_searched", std::uint64_t{0});
  } catch (const json::exception& e) {
    throw bad(e.what());
  } catch (const UsageError& e) {  // an unknown algorithm, format or compression name
    throw bad(e.what());
  }
  if (m.rows < 1 || m.cols < 1 || static_cast<std::int64_t>(m.rows) * m.cols > Board::kMaxSquares ||
      m.split_depth < 0 || m.split_depth >= m.rows * m.cols || m.shard.count < 1 ||
      m.shard.index < 0 || m.shard.index >= m.shard.count || (!m.all_starts && m.prefix.empty())) {
    throw bad("inconsistent fields");
  }
  return m;
}

std::vector<std::string> RunManifest::differences(const RunManifest& o) const {
  std::vector<std::string> out;
  auto cmp = [&](const std::string& what, const auto& a, const auto& b) {
    if (a != b) {
      std::ostringstream s;
      s << std::boolalpha << what << " " << a << " vs " << b;
      out.push_back(s.str());
    }
  };
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? std::string("(none)") : s;
  };
  auto format = [](const std::optional<TourFormat>& f) { return f ? to_string(*f) : ""; };
  auto compressed = [](const std::optional<Compression>& c) { return c ? to_string(*c) : ""; };
  cmp("command", to_string(command), to_string(o.command));
  cmp("board", board_name(), o.board_name());
  cmp("all-starts", all_starts, o.all_starts);
  cmp("prefix", join(prefix), join(o.prefix));
  cmp("closed", closed_only, o.closed_only);
  cmp("algorithm", to_string(algorithm), to_string(o.algorithm));
  cmp("prefix rules", prefix_rules, o.prefix_rules);
  cmp("split depth", split_depth, o.split_depth);
  cmp("shard index", shard.index, o.shard.index);
  cmp("shard count", shard.count, o.shard.count);
  auto rule = [](ShardRule r) { return std::string(r == ShardRule::orbits ? "orbits" : "ids"); };
  cmp("shard rule", rule(shard.rule), rule(o.shard.rule));
  cmp("format", format(tour_format), format(o.tour_format));
  cmp("compression", compressed(compression), compressed(o.compression));
  return out;
}

Request RunManifest::request() const {
  Request r;
  r.board = Board(rows, cols);
  r.all_starts = all_starts;
  for (const auto& name : prefix) {
    r.prefix.push_back(
        static_cast<std::uint8_t>(parse_square(r.board, name, "manifest prefix square")));
  }
  r.mode.closed = closed_only;
  r.mode.algorithm = algorithm;
  r.split_depth = split_depth;
  r.shard = shard;
  r.symmetry = symmetry;
  return r;
}

void RunManifest::describe(const Request& r) {
  rows = r.board.rows();
  cols = r.board.cols();
  all_starts = r.all_starts;
  prefix.clear();
  if (!r.all_starts) {
    for (auto s : r.prefix) prefix.push_back(square_name(r.board, s));
  }
  closed_only = r.mode.closed;
  algorithm = r.mode.algorithm;
  prefix_rules = r.mode.prefix_rules();
  split_depth = r.split_depth.value_or(0);
  shard = r.shard;
  symmetry = r.symmetry;
}

RunManifest read_manifest(const std::filesystem::path& dir) {
  const auto path = run_layout::manifest_path(dir);
  return RunManifest::from_json(read_small_file(path), path.string());
}

void write_manifest(const std::filesystem::path& dir, const RunManifest& manifest) {
  write_file_atomically(run_layout::manifest_path(dir), manifest.to_json());
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace knightstour
