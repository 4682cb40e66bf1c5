#include "knightstour/run/manifest.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "io/json_fields.hpp"
#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/run_layout.hpp"
#include "run/manifest_json.hpp"

namespace knightstour {

using nlohmann::json;

std::string to_string(Command command) {
  return command == Command::enumerate ? "enumerate" : "count";
}

std::string to_string(Method method) {
  return std::string(kMethodNames[static_cast<std::size_t>(method)]);
}

std::optional<Method> parse_method(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kMethodNames); ++i) {
    if (kMethodNames[i] == name) return static_cast<Method>(i);
  }
  return std::nullopt;
}

using json_fields::whole;
using json_fields::whole_or;

std::string dfs_job_key(const RunManifest& m) {
  std::string text = "knightstour-dfs|" + to_string(m.command) + "|" + m.board_name() + "|" +
                     (m.all_starts ? "all" : "") + "|" + (m.closed_only ? "closed" : "open") + "|";
  for (const auto& sq : m.prefix) text += sq + ",";
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "|" + to_string() here.
  text += '|';
  text += to_string(m.algorithm);
  text += '|';
  text += m.prefix_rules;
  text += "|depth " + std::to_string(m.split_depth);
  text += "|shard " + std::to_string(m.shard.index) + " of " + std::to_string(m.shard.count);
  text += m.shard.rule == ShardRule::orbits ? " orbits" : " ids";
  text += m.symmetry ? "|symmetry" : "|no symmetry";
  if (m.command == Command::enumerate) {
    text += '|';
    text += to_string(m.tour_format.value_or(TourFormat::npy));
    text += '|';
    text += to_string(m.compression.value_or(Compression::none));
  }
  if (m.sample) text += "|sample " + std::to_string(m.sample);
  return text;
}

namespace {

// Over every field of an enumerator run that a resume or a reader takes a count from, keyed
// by its job.
std::string dfs_checksum(const RunManifest& m) {
  std::string text = to_string(m.status);
  for (const std::uint64_t n :
       {std::uint64_t{m.prefixes_in_plan}, std::uint64_t{m.prefixes},
        std::uint64_t{m.prefixes_done}, m.tours, m.closed_tours, m.nodes, m.tour_files}) {
    text += '|';
    text += std::to_string(n);
  }
  return keyed_checksum(dfs_job_key(m), text);
}

json timings_json(const RunManifest& m) {
  return {{"created", m.created},   {"updated", m.updated},
          {"seconds", m.seconds},   {"cpu_seconds", m.cpu_seconds},
          {"sessions", m.sessions}, {"nodes_searched", m.nodes_searched}};
}

void read_timings(const json& tm, RunManifest& m) {
  m.created = tm.at("created").get<std::string>();
  m.updated = tm.at("updated").get<std::string>();
  m.seconds = tm.at("seconds").get<double>();
  m.sessions = whole<int>(tm, "sessions");
  m.cpu_seconds = tm.value("cpu_seconds", 0.0);
  m.nodes_searched = whole_or<std::uint64_t>(tm, "nodes_searched", 0);
}

// A merged run's inputs (either method), outside its checksum: they name where the counts came
// from, not what they are.
void write_inputs(const RunManifest& m, json& j) {
  if (m.inputs.empty()) return;
  json list = json::array();
  for (const auto& in : m.inputs) {
    list.push_back({{"dir", in.dir},
                    {"shard_index", in.shard_index},
                    {"host", in.host},
                    {"slurm_job", in.slurm_job},
                    {"git_commit", in.git_commit}});
  }
  j["inputs"] = list;
}

void read_inputs(const json& j, RunManifest& m) {
  if (!j.contains("inputs")) return;
  for (const auto& in : j.at("inputs")) {
    m.inputs.push_back({in.at("dir").get<std::string>(), whole<int>(in, "shard_index"),
                        in.value("host", ""), in.value("slurm_job", ""),
                        in.value("git_commit", "")});
  }
}

// The enumerator's parts of a manifest whose job fields are read: its rules, shard, tour
// files, caps and totals. Throws json::exception or FormatError (from_json names the file).
void read_enumerator(const json& j, RunManifest& m) {
  m.sample = whole_or<std::uint64_t>(j, "sample", 0);
  m.algorithm = parse_algorithm(j.at("algorithm").get<std::string>());
  m.prefix_rules = j.at("prefix_rules").get<std::string>();
  m.split_depth = whole<int>(j, "split_depth");
  m.shard.index = whole<int>(j.at("shard"), "index");
  m.shard.count = whole<int>(j.at("shard"), "count");
  // Manifests written before shards were dealt by orbit carry no rule: they used ids.
  const auto rule = j.at("shard").value("rule", std::string("ids"));
  if (rule != "orbits" && rule != "ids") throw FormatError("unknown shard rule '" + rule + "'");
  m.shard.rule = rule == "orbits" ? ShardRule::orbits : ShardRule::ids;
  if (m.command == Command::enumerate) {
    m.tour_format = parse_tour_format(j.at("tour_format").get<std::string>());
    m.compression = parse_compression(j.at("compression").get<std::string>());
    m.part_size = whole<std::uint64_t>(j, "part_size");
    m.checkpoint_seconds = j.at("checkpoint_seconds").get<double>();
  }
  m.symmetry = j.value("symmetry", true);
  const auto& caps = j.at("caps");
  m.caps.max_nodes = whole<std::uint64_t>(caps, "max_nodes");
  m.caps.max_tours = whole<std::uint64_t>(caps, "max_tours");
  m.caps.time_limit = caps.at("time_limit").get<double>();
  const auto& t = j.at("totals");
  m.prefixes_in_plan = whole<std::size_t>(t, "prefixes_in_plan");
  m.prefixes = whole<std::size_t>(t, "prefixes");
  m.prefixes_done = whole<std::size_t>(t, "prefixes_done");
  m.tours = whole<std::uint64_t>(t, "tours");
  m.closed_tours = whole<std::uint64_t>(t, "closed_tours");
  m.nodes = whole<std::uint64_t>(t, "nodes");
  m.tour_files = whole_or<std::uint64_t>(t, "tour_files", 0);
}

}  // namespace

std::string to_string(RunStatus status) {
  return status == RunStatus::complete ? "complete" : "incomplete";
}

json manifest_common_fields(const RunManifest& m, int format_version) {
  json j;
  j["format"] = "knightstour-run";
  j["format_version"] = format_version;
  j["knightstour_version"] = m.version;
  j["git_commit"] = m.provenance.git_commit;
  j["command_line"] = m.provenance.command_line;
  j["host"] = m.provenance.host;
  j["cpu_model"] = m.provenance.cpu_model;
  j["slurm_job"] = m.provenance.slurm_job;
  j["method"] = to_string(m.method);
  j["command"] = to_string(m.command);
  j["board"] = m.board_name();
  j["rows"] = m.rows;
  j["cols"] = m.cols;
  j["all_starts"] = m.all_starts;
  j["prefix"] = m.prefix;
  j["closed_only"] = m.closed_only;
  j["threads"] = m.threads;
  j["status"] = to_string(m.status);
  j["stop_reason"] = token(m.stop_reason);
  j["stop_reason_text"] = m.stop_reason == StopReason::none ? "" : describe(m.stop_reason);
  write_inputs(m, j);
  j["timings"] = timings_json(m);
  return j;
}

namespace {

// The common fields of a manifest whose format and version are checked.
void read_common(const json& j, RunManifest& m, const std::string& where) {
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
  m.rows = whole<int>(j, "rows");
  m.cols = whole<int>(j, "cols");
  // "board" is for people; rows and cols are read, and must say the same.
  if (j.contains("board") && j.at("board") != m.board_name()) {
    throw FormatError("board " + j.at("board").dump() + " is not its rows x cols (" +
                      m.board_name() + ")");
  }
  m.all_starts = j.at("all_starts").get<bool>();
  m.prefix = j.at("prefix").get<std::vector<std::string>>();
  m.closed_only = j.at("closed_only").get<bool>();
  const auto status = j.at("status").get<std::string>();
  if (status != "complete" && status != "incomplete") throw FormatError("status '" + status + "'");
  m.status = status == "complete" ? RunStatus::complete : RunStatus::incomplete;
  const auto reason = stop_reason_described(j.value("stop_reason", ""));
  m.stop_reason = reason.value_or(StopReason::failure);
  m.threads = whole_or<int>(j, "threads", 0);
  read_inputs(j, m);
  read_timings(j.at("timings"), m);
}

}  // namespace

std::string RunManifest::to_json() const {
  json j = manifest_common_fields(*this, checksums ? kFormatVersion : 3);
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
  j["symmetry"] = symmetry;
  j["caps"] = {{"max_nodes", caps.max_nodes},
               {"max_tours", caps.max_tours},
               {"time_limit", caps.time_limit}};
  j["totals"] = {{"prefixes_in_plan", prefixes_in_plan},
                 {"prefixes", prefixes},
                 {"prefixes_done", prefixes_done},
                 {"tours", tours},
                 {"closed_tours", closed_tours},
                 {"nodes", nodes},
                 {"tour_files", tour_files}};
  if (checksums) j["checksum"] = dfs_checksum(*this);
  return j.dump(2) + "\n";
}

RunManifest RunManifest::from_json(const std::string& text, const std::string& where) {
  json j;
  json_fields::reading(where, [&] { j = json::parse(text); });
  return manifest_from_json(j, where);
}

RunManifest manifest_from_json(const json& j, const std::string& where) {
  RunManifest m;
  json_fields::reading(where, [&] {
    if (j.at("format") != "knightstour-run")
      throw FormatError(where + " is not a knightstour run manifest");
    // Version 2 added the shard rule (a version 1 manifest dealt shards by id); version 3 the
    // method.
    const int format_version = whole<int>(j, "format_version");
    if (format_version < 1 || format_version > RunManifest::kFormatVersion) {
      throw FormatError(where + ": unsupported manifest version " + j.at("format_version").dump() +
                        " (this knightstour reads 1 to " +
                        std::to_string(RunManifest::kFormatVersion) + ")");
    }
    const auto method_name = j.value("method", std::string("dfs"));
    const auto named = parse_method(method_name);
    if (!named) throw FormatError("unknown method '" + method_name + "'");
    m.method = *named;
    read_common(j, m, where);
    if (m.method != Method::dfs) return;  // its layer reads its section
    // The versions the enumerator has written: a manifest claiming another was not written so.
    if (format_version == 4) {
      throw FormatError("format_version 4 of the dfs method, which no knightstour writes");
    }
    m.checksums = format_version >= 5;
    read_enumerator(j, m);
    if (m.checksums && j.at("checksum").get<std::string>() != dfs_checksum(m)) {
      throw FormatError(where +
                        ": its checksum does not match what it says (changed by hand or "
                        "damaged); a run's manifest is written by knightstour only");
    }
    if (!m.checksums && j.contains("checksum")) {
      throw FormatError("a checksum in a manifest of format " + std::to_string(format_version) +
                        ", which has none (changed by hand)");
    }
    if (m.rows < 1 || m.cols < 1 ||
        static_cast<std::int64_t>(m.rows) * m.cols > Board::kMaxSquares || m.split_depth < 0 ||
        m.split_depth >= m.rows * m.cols || m.shard.count < 1 || m.shard.index < 0 ||
        m.shard.index >= m.shard.count || (!m.all_starts && m.prefix.empty())) {
      throw FormatError("inconsistent fields");
    }
  });
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
  cmp("method", to_string(method), to_string(o.method));
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

MergedInput merged_input(const std::filesystem::path& dir, int shard_index,
                         const Provenance& provenance) {
  return {std::filesystem::absolute(dir).lexically_normal().string(), shard_index, provenance.host,
          provenance.slurm_job, provenance.git_commit};
}

std::optional<Method> manifest_method(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto path = run_layout::manifest_path(dir);
  if (!std::filesystem::is_regular_file(path, ec)) {
    return std::nullopt;
  }
  const auto j = nlohmann::json::parse(read_small_file(path), nullptr, false);
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find("method");
  if (it == j.end()) return Method::dfs;  // formats 1 and 2 knew the enumerator only
  if (!it->is_string()) return Method::dfs;
  return parse_method(it->get<std::string>()).value_or(Method::dfs);
}

void write_manifest(const std::filesystem::path& dir, const RunManifest& manifest) {
  if (manifest.method != Method::dfs) {
    throw std::logic_error("write_manifest: a " + to_string(manifest.method) +
                           " run's manifest is written by its own layer");
  }
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
