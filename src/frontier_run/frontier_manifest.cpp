#include "knightstour/frontier_run/frontier_manifest.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "io/json_fields.hpp"
#include "knightstour/base/checksum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/wide_count.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/run_layout.hpp"
#include "run/manifest_json.hpp"

namespace knightstour {

using json_fields::whole;
using nlohmann::json;

std::string frontier_job_key(const FrontierManifest& m) {
  std::string text = "knightstour-frontier|" + std::to_string(m.rows) + "x" +
                     std::to_string(m.cols) + "|" + (m.all_starts ? "all" : "") + "|" +
                     (m.closed_only ? "closed" : "open") + "|";
  for (const auto& sq : m.prefix) text += sq + ",";
  const FrontierProgress& f = m.frontier;
  if (f.total_only) text += "|total only";  // absent before total-only runs existed
  if (f.every_length) text += "|every length";
  if (f.modulus != 0) {
    text += "|modulo ";
    text += std::to_string(f.modulus);
  }
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

namespace {

// FNV-1a over every field of a frontier run that a resume or a reader takes a count from.
std::string frontier_checksum(const FrontierManifest& m) {
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

// The frontier's section of a manifest whose common fields are read; refuses anything a
// count could be taken from wrongly: a checksum that does not match, a sweep listed twice or
// past the plan.
void read_section(const json& j, FrontierManifest& m) {
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
  if (f.contains("modulus")) {
    p.modulus = whole<std::uint64_t>(f, "modulus");
    if (!is_modulus(p.modulus)) {
      throw FormatError("modulus " + std::to_string(p.modulus) + " is not an odd prime below 2^62");
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
    if (!json_fields::is_decimal(count)) {
      throw FormatError("sweep count '" + count + "' is not a number");
    }
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
      if (!json_fields::is_decimal(*v)) throw FormatError("count '" + *v + "' is not a number");
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

std::string FrontierManifest::to_json() const {
  json j = manifest_common_fields(
      *this, frontier.modulus != 0 ? kResidueFormatVersion : kFrontierFormatVersion);
  j["caps"] = {{"time_limit", caps.time_limit}};
  const FrontierProgress& f = frontier;
  json finished = json::array();
  for (const auto& [sweep, count] : f.finished) {
    finished.push_back({{"sweep", sweep}, {"count", count}});
  }
  json counts = nullptr;
  if (status == RunStatus::complete) {
    counts = {{"tours", f.tours},
              {"closed_tours", f.closed_tours},
              {"closed_cycles", f.closed_cycles},
              {"tours_by_start", f.tours_by_start}};
  }
  j["frontier"] = {{"sweeps_planned", f.sweeps_planned},
                   {"finished", finished},
                   {"counts", counts},
                   {"checkpoint_seconds", f.checkpoint_seconds},
                   {"checksum", frontier_checksum(*this)}};
  if (f.total_only) j["frontier"]["total_only"] = true;
  if (f.every_length) j["frontier"]["every_length"] = true;
  if (f.modulus != 0) j["frontier"]["modulus"] = f.modulus;
  if (f.end_pairs) {
    j["frontier"]["units"] = {
        {"by", "end pairs"}, {"shard_index", f.shard.index}, {"shard_count", f.shard.count}};
  }
  if (!f.run_id.empty() || f.ranks != 1) {
    j["frontier"]["owner"] = {{"rank", f.rank}, {"ranks", f.ranks}, {"run_id", f.run_id}};
  }
  return j.dump(2) + "\n";
}

FrontierManifest FrontierManifest::from_json(const std::string& text, const std::string& where) {
  json j;
  json_fields::reading(where, [&] { j = json::parse(text); });
  FrontierManifest m(manifest_from_json(j, where));
  json_fields::reading(where, [&] {
    if (m.method != Method::frontier) throw FormatError("it is not a frontier run's manifest");
    // The versions the frontier method has written: a manifest claiming another was not.
    const int format_version = whole<int>(j, "format_version");
    if (format_version != 3 && format_version != kFrontierFormatVersion &&
        format_version != kResidueFormatVersion) {
      throw FormatError("format_version " + std::to_string(format_version) +
                        " of the frontier method, which no knightstour writes");
    }
    read_section(j, m);
    // A residue unit's manifest, and only one, says format 5.
    if ((m.frontier.modulus != 0) != (format_version == kResidueFormatVersion)) {
      throw FormatError("format_version " + std::to_string(format_version) +
                        (m.frontier.modulus != 0 ? " with a modulus" : " without a modulus"));
    }
    // A frontier run counts from one start or all; the board may be long but not wide.
    if (m.rows < 1 || m.cols < 1 || std::min(m.rows, m.cols) > 16 ||
        std::max(m.rows, m.cols) > 100000 || m.command != Command::count ||
        m.all_starts == (m.prefix.size() == 1) || m.prefix.size() > 1) {
      throw FormatError("inconsistent fields");
    }
  });
  return m;
}

FrontierManifest read_frontier_manifest(const std::filesystem::path& dir) {
  const auto path = run_layout::manifest_path(dir);
  return FrontierManifest::from_json(read_small_file(path), path.string());
}

void write_manifest(const std::filesystem::path& dir, const FrontierManifest& manifest) {
  write_file_atomically(run_layout::manifest_path(dir), manifest.to_json());
}

bool holds_frontier_run(const std::filesystem::path& dir) {
  return run_layout::holds_ranked_shares(dir) || manifest_method(dir) == Method::frontier;
}

}  // namespace knightstour
