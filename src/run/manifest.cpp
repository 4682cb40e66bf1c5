#include "knightstour/run/manifest.hpp"

#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

using nlohmann::json;

std::string RunManifest::to_json() const {
  json j;
  j["format"] = "knightstour-run";
  j["format_version"] = kFormatVersion;
  j["knightstour_version"] = version;
  j["command"] = command;
  j["board"] = board_name();
  j["rows"] = rows;
  j["cols"] = cols;
  j["all_starts"] = all_starts;
  j["prefix"] = prefix;
  j["closed_only"] = closed_only;
  j["algorithm"] = algorithm;
  j["prefix_rules"] = prefix_rules;
  j["split_depth"] = split_depth;
  j["shard"] = {{"index", shard.index}, {"count", shard.count}};
  if (command == "enumerate") {
    j["tour_format"] = tour_format;
    j["compression"] = compression;
    j["part_size"] = part_size;
    j["checkpoint_seconds"] = checkpoint_seconds;
  }
  j["threads"] = threads;
  j["symmetry"] = symmetry;
  j["caps"] = {{"max_nodes", caps.max_nodes},
               {"max_tours", caps.max_tours},
               {"time_limit", caps.time_limit}};
  j["status"] = status;
  j["stop_reason"] = stop_reason;
  j["totals"] = {{"prefixes_in_plan", prefixes_in_plan},
                 {"prefixes", prefixes},
                 {"prefixes_done", prefixes_done},
                 {"tours", tours},
                 {"closed_tours", closed_tours},
                 {"nodes", nodes},
                 {"tour_files", tour_files}};
  j["timings"] = {
      {"created", created}, {"updated", updated}, {"seconds", seconds}, {"sessions", sessions}};
  return j.dump(2) + "\n";
}

RunManifest RunManifest::from_json(const std::string& text, const std::string& where) {
  RunManifest m;
  try {
    const json j = json::parse(text);
    if (j.at("format") != "knightstour-run")
      throw FormatError(where + " is not a knightstour run manifest");
    if (j.at("format_version").get<int>() != kFormatVersion) {
      throw FormatError(where + ": unsupported manifest version " + j.at("format_version").dump());
    }
    m.version = j.value("knightstour_version", "");
    m.command = j.at("command").get<std::string>();
    m.rows = j.at("rows").get<int>();
    m.cols = j.at("cols").get<int>();
    m.all_starts = j.at("all_starts").get<bool>();
    m.prefix = j.at("prefix").get<std::vector<std::string>>();
    m.closed_only = j.at("closed_only").get<bool>();
    m.algorithm = j.at("algorithm").get<std::string>();
    m.prefix_rules = j.at("prefix_rules").get<std::string>();
    m.split_depth = j.at("split_depth").get<int>();
    m.shard.index = j.at("shard").at("index").get<int>();
    m.shard.count = j.at("shard").at("count").get<int>();
    if (m.command == "enumerate") {
      m.tour_format = j.at("tour_format").get<std::string>();
      m.compression = j.at("compression").get<std::string>();
      m.part_size = j.at("part_size").get<std::uint64_t>();
      m.checkpoint_seconds = j.at("checkpoint_seconds").get<double>();
    } else if (m.command != "count") {
      throw FormatError(where + ": unknown command '" + m.command + "'");
    }
    m.threads = j.value("threads", 0);
    m.symmetry = j.value("symmetry", true);
    const auto& caps = j.at("caps");
    m.caps.max_nodes = caps.at("max_nodes").get<std::uint64_t>();
    m.caps.max_tours = caps.at("max_tours").get<std::uint64_t>();
    m.caps.time_limit = caps.at("time_limit").get<double>();
    m.status = j.at("status").get<std::string>();
    m.stop_reason = j.value("stop_reason", "");
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
  } catch (const json::exception& e) {
    throw FormatError(where + " is not a valid manifest: " + e.what());
  }
  if (m.rows < 1 || m.cols < 1 || static_cast<std::int64_t>(m.rows) * m.cols > Board::kMaxSquares ||
      m.split_depth < 0 || m.split_depth >= m.rows * m.cols || m.shard.count < 1 ||
      m.shard.index < 0 || m.shard.index >= m.shard.count ||
      (m.status != "complete" && m.status != "incomplete") || (!m.all_starts && m.prefix.empty())) {
    throw FormatError(where + " is not a valid manifest: inconsistent fields");
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
  cmp("command", command, o.command);
  cmp("board", board_name(), o.board_name());
  cmp("all-starts", all_starts, o.all_starts);
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? std::string("(none)") : s;
  };
  cmp("prefix", join(prefix), join(o.prefix));
  cmp("closed", closed_only, o.closed_only);
  cmp("algorithm", algorithm, o.algorithm);
  cmp("prefix rules", prefix_rules, o.prefix_rules);
  cmp("split depth", split_depth, o.split_depth);
  cmp("shard index", shard.index, o.shard.index);
  cmp("shard count", shard.count, o.shard.count);
  cmp("format", tour_format, o.tour_format);
  cmp("compression", compression, o.compression);
  return out;
}

RunManifest read_manifest(const std::filesystem::path& dir) {
  const auto path = dir / "manifest.json";
  return RunManifest::from_json(read_small_file(path), path.string());
}

void write_manifest(const std::filesystem::path& dir, const RunManifest& manifest) {
  write_file_atomically(dir / "manifest.json", manifest.to_json());
}

JobSpec job_from_manifest(const RunManifest& m) {
  JobSpec job;
  job.board = Board(m.rows, m.cols);
  job.all_starts = m.all_starts;
  for (const auto& name : m.prefix) {
    job.prefix.push_back(
        static_cast<std::uint8_t>(parse_square(job.board, name, "manifest prefix square")));
  }
  job.mode.closed = m.closed_only;
  job.mode.algorithm = parse_algorithm(m.algorithm);
  job.split_depth = m.split_depth;
  job.shard = m.shard;
  job.symmetry = m.symmetry;
  return job;
}

void describe_job(const JobSpec& job, RunManifest& m) {
  m.rows = job.board.rows();
  m.cols = job.board.cols();
  m.all_starts = job.all_starts;
  m.prefix.clear();
  if (!job.all_starts) {
    for (auto s : job.prefix) m.prefix.push_back(square_name(job.board, s));
  }
  m.closed_only = job.mode.closed;
  m.algorithm = to_string(job.mode.algorithm);
  m.prefix_rules = job.mode.prefix_rules();
  m.split_depth = job.split_depth;
  m.shard = job.shard;
  m.threads = job.threads;
  m.symmetry = job.symmetry;
  m.caps = job.caps;
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
