#include "knightstour/run/manifest.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

using nlohmann::json;

std::string to_string(Command command) {
  return command == Command::enumerate ? "enumerate" : "count";
}

std::string to_string(Method method) { return method == Method::frontier ? "frontier" : "dfs"; }

namespace {

// A whole number of type T under `key`, refused (not truncated, not wrapped) when the JSON
// holds a fraction, an exponent form, a negative for an unsigned field, or something too big.
template <class T>
T whole(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number_integer()) {
    throw FormatError(std::string(key) + " is " + v.dump() + ", not a whole number");
  }
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (!std::in_range<T>(u)) throw FormatError(std::string(key) + " " + v.dump() + " is too big");
    return static_cast<T>(u);
  }
  const auto i = v.get<std::int64_t>();
  if (!std::in_range<T>(i))
    throw FormatError(std::string(key) + " " + v.dump() + " is out of range");
  return static_cast<T>(i);
}

template <class T>
T whole_or(const json& j, const char* key, T fallback) {
  return j.contains(key) ? whole<T>(j, key) : fallback;
}

bool is_decimal(const std::string& s) {
  return !s.empty() && s.size() < 200 && s.find_first_not_of("0123456789") == std::string::npos &&
         (s == "0" || s[0] != '0');
}

}  // namespace

std::string frontier_job_key(const RunManifest& m) {
  std::string text = "knightstour-frontier|" + std::to_string(m.rows) + "x" +
                     std::to_string(m.cols) + "|" + (m.all_starts ? "all" : "") + "|" +
                     (m.closed_only ? "closed" : "open") + "|";
  for (const auto& sq : m.prefix) text += sq + ",";
  const FrontierProgress& f = m.frontier;
  if (f.total_only) text += "|total only";  // absent before total-only runs existed
  if (f.every_length) text += "|every length";
  if (f.end_pairs) {
    text += "|end pairs, shard " + std::to_string(f.shard.index) + " of ";
    text += std::to_string(f.shard.count);
  }
  // Absent before runs named their owner: an old manifest's checksum still matches.
  if (!f.run_id.empty() || f.ranks != 1) {
    text += "|rank " + std::to_string(f.rank) + " of " + std::to_string(f.ranks) + " run ";
    text += f.run_id;
  }
  return text;
}

std::string dfs_job_key(const RunManifest& m) {
  std::string text = "knightstour-dfs|" + to_string(m.command) + "|" + m.board_name() + "|" +
                     (m.all_starts ? "all" : "") + "|" + (m.closed_only ? "closed" : "open") + "|";
  for (const auto& sq : m.prefix) text += sq + ",";
  text += "|" + to_string(m.algorithm) + "|" + m.prefix_rules;
  text += "|depth " + std::to_string(m.split_depth);
  text += "|shard " + std::to_string(m.shard.index) + " of " + std::to_string(m.shard.count);
  text += m.shard.rule == ShardRule::orbits ? " orbits" : " ids";
  text += m.symmetry ? "|symmetry" : "|no symmetry";
  if (m.command == Command::enumerate) {
    text += "|" + to_string(m.tour_format.value_or(TourFormat::npy)) + "|" +
            to_string(m.compression.value_or(Compression::none));
  }
  if (m.sample) text += "|sample " + std::to_string(m.sample);
  return text;
}

namespace {

// FNV-1a over every field of a frontier run that a resume or a reader takes a count from.
std::string frontier_checksum(const RunManifest& m) {
  std::string text = frontier_job_key(m);
  const FrontierProgress& f = m.frontier;
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "|" + std::to_string() here.
  text += '|';
  text += std::to_string(f.sweeps_planned);
  text += '|';
  for (const auto& [sweep, count] : f.finished) {
    text += std::to_string(sweep);
    text += '=';
    text += count;
    text += ';';
  }
  for (const std::string& field : {to_string(m.status), f.tours, f.closed_tours, f.closed_cycles}) {
    text += '|';
    text += field;
  }
  text += '|';
  for (const auto& c : f.tours_by_start) text += c + ",";
  return fnv1a_hex(text);
}

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

// A merged run's inputs (either method), outside the frontier checksum: they name where the
// counts came from, not what they are.
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
  read_inputs(j, m);
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
  m.threads = whole_or<int>(j, "threads", 0);
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

// The run-control and frontier parts of a frontier run's manifest (`j` holds the job).
std::string frontier_to_json(const RunManifest& m, json j) {
  j["threads"] = m.threads;
  j["caps"] = {{"time_limit", m.caps.time_limit}};
  j["status"] = to_string(m.status);
  j["stop_reason"] = token(m.stop_reason);
  j["stop_reason_text"] = m.stop_reason == StopReason::none ? "" : describe(m.stop_reason);
  const FrontierProgress& f = m.frontier;
  json finished = json::array();
  for (const auto& [sweep, count] : f.finished) {
    finished.push_back({{"sweep", sweep}, {"count", count}});
  }
  json counts = nullptr;
  if (m.status == RunStatus::complete) {
    counts = {{"tours", f.tours},
              {"closed_tours", f.closed_tours},
              {"closed_cycles", f.closed_cycles},
              {"tours_by_start", f.tours_by_start}};
  }
  j["frontier"] = {{"sweeps_planned", f.sweeps_planned},
                   {"finished", finished},
                   {"counts", counts},
                   {"checkpoint_seconds", f.checkpoint_seconds},
                   {"checksum", frontier_checksum(m)}};
  if (f.total_only) j["frontier"]["total_only"] = true;
  if (f.every_length) j["frontier"]["every_length"] = true;
  if (f.end_pairs) {
    j["frontier"]["units"] = {
        {"by", "end pairs"}, {"shard_index", f.shard.index}, {"shard_count", f.shard.count}};
  }
  if (!f.run_id.empty() || f.ranks != 1) {
    j["frontier"]["owner"] = {{"rank", f.rank}, {"ranks", f.ranks}, {"run_id", f.run_id}};
  }
  write_inputs(m, j);
  j["timings"] = timings_json(m);
  return j.dump(2) + "\n";
}

// The frontier parts of a manifest whose job fields are read; refuses anything a count could
// be taken from wrongly: a checksum that does not match, a sweep listed twice or past the plan.
void read_frontier(const json& j, RunManifest& m) {
  m.threads = whole_or<int>(j, "threads", 0);
  m.caps.time_limit = j.at("caps").value("time_limit", 0.0);
  const json& f = j.at("frontier");
  FrontierProgress& p = m.frontier;
  if (f.contains("total_only")) {
    if (!f.at("total_only").is_boolean()) throw FormatError("total_only is not true or false");
    p.total_only = f.at("total_only").get<bool>();
    if (p.total_only && (!m.all_starts || m.closed_only)) {
      throw FormatError("a total-only run is of open tours over all starts");
    }
  }
  if (f.contains("every_length")) {
    if (!f.at("every_length").is_boolean()) throw FormatError("every_length is not true or false");
    p.every_length = f.at("every_length").get<bool>();
    if (p.every_length && !m.all_starts) throw FormatError("a row is counted over all starts");
  }
  if (f.contains("units")) {
    const json& u = f.at("units");
    if (u.at("by") != "end pairs")
      throw FormatError("units by " + u.at("by").dump() + " are unknown");
    p.end_pairs = true;
    p.shard.index = whole<int>(u, "shard_index");
    p.shard.count = whole<int>(u, "shard_count");
    if (!p.shard.exists()) {
      throw FormatError("units: shard " + std::to_string(p.shard.index) + " of " +
                        std::to_string(p.shard.count) + " does not exist");
    }
    if (!m.all_starts || m.closed_only || p.total_only) {
      throw FormatError("units by end pairs count open tours over all starts");
    }
  }
  if (f.contains("owner")) {
    const json& o = f.at("owner");
    p.rank = whole<int>(o, "rank");
    p.ranks = whole<int>(o, "ranks");
    p.run_id = o.at("run_id").get<std::string>();
    if (p.ranks < 1 || p.ranks > 1000000 || p.rank < 0 || p.rank >= p.ranks) {
      throw FormatError("owner: rank " + std::to_string(p.rank) + " of " + std::to_string(p.ranks) +
                        " is out of range");
    }
    if (p.run_id.size() != 16 ||
        p.run_id.find_first_not_of("0123456789abcdef") != std::string::npos) {
      throw FormatError("owner: run_id '" + p.run_id + "' is not 16 hex digits");
    }
  }
  p.sweeps_planned = whole<int>(f, "sweeps_planned");
  // A board with no pair of squares that can end a tour (one square) has no units of end pairs.
  if (p.sweeps_planned < (p.end_pairs ? 0 : 1) || p.sweeps_planned > 1000000) {
    throw FormatError("sweeps_planned " + std::to_string(p.sweeps_planned) + " is out of range");
  }
  for (const auto& s : f.at("finished")) {
    const int sweep = whole<int>(s, "sweep");
    const auto count = s.at("count").get<std::string>();
    if (sweep < 0 || sweep >= p.sweeps_planned) {
      throw FormatError("finished sweep " + std::to_string(sweep) + " is not in the plan");
    }
    if (!is_decimal(count)) throw FormatError("sweep count '" + count + "' is not a number");
    if (!p.finished.emplace(sweep, count).second) {
      throw FormatError("sweep " + std::to_string(sweep) + " is listed as finished twice");
    }
  }
  if (!f.at("counts").is_null()) {
    const json& c = f.at("counts");
    p.tours = c.at("tours").get<std::string>();
    p.closed_tours = c.at("closed_tours").get<std::string>();
    p.closed_cycles = c.at("closed_cycles").get<std::string>();
    p.tours_by_start = c.at("tours_by_start").get<std::vector<std::string>>();
    for (const auto* v : {&p.tours, &p.closed_tours, &p.closed_cycles}) {
      if (!is_decimal(*v)) throw FormatError("count '" + *v + "' is not a number");
    }
  }
  p.checkpoint_seconds = f.value("checkpoint_seconds", -1.0);  // -1: not recorded
  if (f.at("checksum").get<std::string>() != frontier_checksum(m)) {
    throw FormatError(
        "its checksum does not match what it says (changed by hand or damaged); a frontier "
        "run's manifest is written by knightstour only");
  }
}

}  // namespace

std::string to_string(RunStatus status) {
  return status == RunStatus::complete ? "complete" : "incomplete";
}

std::string RunManifest::to_json() const {
  json j;
  j["format"] = "knightstour-run";
  j["format_version"] = method == Method::frontier ? kFrontierFormatVersion
                        : checksums                ? kFormatVersion
                                                   : 3;
  j["knightstour_version"] = version;
  j["git_commit"] = provenance.git_commit;
  j["command_line"] = provenance.command_line;
  j["host"] = provenance.host;
  j["cpu_model"] = provenance.cpu_model;
  j["slurm_job"] = provenance.slurm_job;
  j["method"] = to_string(method);
  j["command"] = to_string(command);
  j["board"] = board_name();
  j["rows"] = rows;
  j["cols"] = cols;
  j["all_starts"] = all_starts;
  j["prefix"] = prefix;
  j["closed_only"] = closed_only;
  if (method == Method::frontier) return frontier_to_json(*this, std::move(j));
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
  if (checksums) j["checksum"] = dfs_checksum(*this);
  write_inputs(*this, j);
  j["timings"] = timings_json(*this);
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
    // Version 2 added the shard rule (a version 1 manifest dealt shards by id); version 3 the
    // method.
    const int format_version = whole<int>(j, "format_version");
    if (format_version < 1 || format_version > kFormatVersion) {
      throw FormatError(where + ": unsupported manifest version " + j.at("format_version").dump() +
                        " (this knightstour reads 1 to " + std::to_string(kFormatVersion) + ")");
    }
    const auto method_name = j.value("method", std::string("dfs"));
    if (method_name != "dfs" && method_name != "frontier") {
      throw bad("unknown method '" + method_name + "'");
    }
    m.method = method_name == "frontier" ? Method::frontier : Method::dfs;
    // Which versions each method has written: a manifest claiming another was not written so.
    const bool written = m.method == Method::frontier ? format_version == 3 || format_version == 4
                                                      : format_version != 4;
    if (!written) {
      throw bad("format_version " + std::to_string(format_version) + " of the " + method_name +
                " method, which no knightstour writes");
    }
    m.checksums = m.method == Method::dfs && format_version >= 5;
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
      throw bad("board " + j.at("board").dump() + " is not its rows x cols (" + m.board_name() +
                ")");
    }
    m.all_starts = j.at("all_starts").get<bool>();
    m.prefix = j.at("prefix").get<std::vector<std::string>>();
    m.closed_only = j.at("closed_only").get<bool>();
    const auto status = j.at("status").get<std::string>();
    if (status != "complete" && status != "incomplete") throw bad("status '" + status + "'");
    m.status = status == "complete" ? RunStatus::complete : RunStatus::incomplete;
    const auto reason = stop_reason_described(j.value("stop_reason", ""));
    m.stop_reason = reason.value_or(StopReason::failure);
    read_timings(j.at("timings"), m);
    if (m.method == Method::frontier) {
      read_frontier(j, m);
      read_inputs(j, m);
      // A frontier run counts from one start or all; the board may be long but not wide.
      if (m.rows < 1 || m.cols < 1 || std::min(m.rows, m.cols) > 16 ||
          std::max(m.rows, m.cols) > 100000 || m.command != Command::count ||
          m.all_starts == (m.prefix.size() == 1) || m.prefix.size() > 1) {
        throw bad("inconsistent fields");
      }
      return m;
    }
    read_enumerator(j, m);
    if (m.checksums && j.at("checksum").get<std::string>() != dfs_checksum(m)) {
      throw FormatError(where +
                        ": its checksum does not match what it says (changed by hand or "
                        "damaged); a run's manifest is written by knightstour only");
    }
    if (!m.checksums && j.contains("checksum")) {
      throw bad("a checksum in a manifest of format " + std::to_string(format_version) +
                ", which has none (changed by hand)");
    }
  } catch (const json::exception& e) {
    throw bad(e.what());
  } catch (const UsageError& e) {  // an unknown algorithm, format or compression name
    throw bad(e.what());
  } catch (const FormatError& e) {
    const std::string what = e.what();
    if (what.rfind(where, 0) == 0) throw;
    throw bad(what);
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
    // Only the frontier method counts over MPI ranks; their shares lie beside ranks.json.
    if (run_layout::holds_ranked_shares(dir)) return Method::frontier;
    return std::nullopt;
  }
  const auto j = nlohmann::json::parse(read_small_file(path), nullptr, false);
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find("method");
  if (it == j.end()) return Method::dfs;  // formats 1 and 2 knew the enumerator only
  if (it->is_string() && *it == "frontier") return Method::frontier;
  return Method::dfs;
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
