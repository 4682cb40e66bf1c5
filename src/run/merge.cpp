#include "knightstour/run/merge.hpp"

#include <fcntl.h>

#include <algorithm>
#include <map>

#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "knightstour/run/verify.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

struct Input {
  fs::path dir;
  RunManifest manifest;
  std::vector<JournalRecord> records;  // the committed ones
};

// The committed records of a run directory, after checking it the way verify does (its
// plan, journal lines, file sizes or every tour): merge writes nothing from an input it
// cannot vouch for. What an interrupted session left is not a problem: those prefixes are
// simply not done, and a note says so.
Input read_input(const fs::path& dir, bool read_tours, std::vector<std::string>& notes) {
  if (!fs::exists(run_layout::manifest_path(dir)))
    throw UsageError(dir.string() + " is not a run directory (no " + run_layout::kManifest + ")");
  RunManifest manifest;
  VerifyReport check;
  try {
    manifest = read_manifest(dir);
    if (manifest.method != Method::dfs) {
      throw UsageError("cannot merge " + dir.string() + ": it holds a count by the " +
                       to_string(manifest.method) +
                       " method, which is whole in one directory (merge combines the "
                       "enumerator's shards)");
    }
    if (manifest.sample) {
      throw UsageError("cannot merge " + dir.string() +
                       ": it holds a sample (enumerate $sample), not a share of a run");
    }
    check = verify_run_directory(dir, {read_tours});
  } catch (const FormatError& e) {
    throw FormatError("cannot merge " + dir.string() + ": " + e.what());
  }
  if (!check.ok) throw FormatError("cannot merge " + dir.string() + ": " + check.problem);
  for (const auto& note : check.notes) notes.push_back(dir.string() + ": " + note);
  Input in{dir, std::move(manifest), {}};
  in.records = read_committed(dir, in.manifest, std::nullopt, FileCheck::names).records;
  return in;
}

void link_or_copy(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_hard_link(from, to, ec);
  if (!ec) return;
  fs::copy_file(from, to, ec);
  if (ec)
    throw IoError("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
  PosixFile file(to, O_RDONLY);
  file.sync();
}

// What was asked must agree, except which shard each input ran; so must the plan.
void check_same_job(const std::vector<Input>& inputs) {
  const RunManifest& first = inputs.front().manifest;
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    RunManifest other = inputs[i].manifest;
    other.shard.index = first.shard.index;
    const auto diff = first.differences(other);
    if (!diff.empty()) {
      std::string list;
      for (const auto& d : diff) list += (list.empty() ? "" : "; ") + d;
      throw UsageError("cannot merge " + inputs[i].dir.string() + " with " +
                       inputs.front().dir.string() + ": their manifests differ: " + list);
    }
  }
  const std::size_t plan_size = first.prefixes_in_plan;
  for (const auto& in : inputs) {
    if (in.manifest.prefixes_in_plan != plan_size) {
      throw UsageError("cannot merge: " + in.dir.string() + " has a plan of " +
                       std::to_string(in.manifest.prefixes_in_plan) + " prefixes, " +
                       inputs.front().dir.string() + " of " + std::to_string(plan_size));
    }
  }
}

// Prefix id -> the input that finished it and its journal record: each prefix finished
// exactly once, and every id in the plan.
using Owners = std::map<std::size_t, std::pair<std::size_t, const JournalRecord*>>;
Owners owners_of(const std::vector<Input>& inputs, std::size_t plan_size) {
  Owners owner;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (const auto& r : inputs[i].records) {
      if (r.id >= plan_size)
        throw UsageError(inputs[i].dir.string() + ": prefix id " + std::to_string(r.id) +
                         " is not in the plan");
      const auto [it, fresh] = owner.emplace(r.id, std::make_pair(i, &r));
      if (!fresh) {
        throw UsageError("cannot merge: prefix " + std::to_string(r.id) + " is finished in both " +
                         inputs[it->second.first].dir.string() + " and " + inputs[i].dir.string() +
                         " (the same shard given twice, or overlapping shards)");
      }
    }
  }
  return owner;
}

// The merged run's manifest: the job of the first input as one shard, the counts of
// `report`, the time of every input summed, and every input listed (an input that was
// itself merged contributes its inputs).
RunManifest merged_manifest(const std::vector<Input>& inputs, const MergeReport& report,
                            const Provenance& provenance) {
  const RunManifest& first = inputs.front().manifest;
  RunManifest m = first;
  m.shard = {0, 1};
  // Checksums vouch for a merged run only where every input carried them.
  m.checksums = std::all_of(inputs.begin(), inputs.end(),
                            [](const Input& in) { return in.manifest.checksums; });
  m.prefixes = report.prefixes;
  m.prefixes_done = report.prefixes_done;
  m.tours = report.tours;
  m.closed_tours = report.closed;
  m.nodes = report.nodes;
  m.tour_files = report.files;
  m.status = report.complete() ? RunStatus::complete : RunStatus::incomplete;
  m.stop_reason = report.complete() ? StopReason::none : StopReason::missing_shards;
  m.seconds = 0;
  m.sessions = 0;
  m.cpu_seconds = 0;
  m.nodes_searched = 0;
  m.inputs.clear();
  for (const auto& in : inputs) {
    if (!in.manifest.inputs.empty()) {
      m.inputs.insert(m.inputs.end(), in.manifest.inputs.begin(), in.manifest.inputs.end());
    } else {
      m.inputs.push_back(merged_input(in.dir, in.manifest.shard.index, in.manifest.provenance));
    }
    m.seconds += in.manifest.seconds;
    m.sessions += in.manifest.sessions;
    m.cpu_seconds += in.manifest.cpu_seconds;
    add_checked(m.nodes_searched, in.manifest.nodes_searched, "merge");
  }
  m.provenance = provenance;
  m.created = utc_now_iso8601();
  m.updated = m.created;
  return m;
}

}  // namespace

MergeReport merge_runs(const std::vector<fs::path>& dirs, const fs::path& out,
                       const MergeOptions& options) {
  if (dirs.empty()) throw UsageError("merge needs at least one run directory");
  MergeReport report;
  std::vector<Input> inputs;
  for (const auto& d : dirs) inputs.push_back(read_input(d, options.read_tours, report.notes));
  check_same_job(inputs);
  const RunManifest& first = inputs.front().manifest;
  const std::size_t plan_size = first.prefixes_in_plan;
  const Owners owner = owners_of(inputs, plan_size);
  // Built whole beside its place and renamed there: a merge killed part-way leaves nothing.
  NewRunDirectory built = NewRunDirectory::begin(out, kMergeWritesNew);
  const fs::path& dir = built.path();
  const bool enumerate = first.command == Command::enumerate;
  std::map<std::pair<std::size_t, std::string>, std::string> renamed;
  std::uint64_t part = 0;
  const std::string extension = enumerate
                                    ? file_extension(first.tour_format.value_or(TourFormat::npy),
                                                     first.compression.value_or(Compression::none))
                                    : "";
  // The merged journal is keyed as the merged manifest is (shard 0 of 1), its totals aside.
  const JournalFormat format = journal_format(merged_manifest(inputs, report, {}));
  std::string journal = journal_header(format);
  for (const auto& [id, who] : owner) {
    JournalRecord r = *who.second;
    if (enumerate && r.file != "-") {
      const auto key = std::make_pair(who.first, r.file);
      auto it = renamed.find(key);
      if (it == renamed.end()) {
        const auto name = run_layout::tour_file_name(0, part++, extension);
        link_or_copy(inputs[who.first].dir / r.file, dir / name);
        it = renamed.emplace(key, name).first;
      }
      r.file = it->second;
    }
    add_checked(report.tours, r.tours, "merge");
    add_checked(report.closed, r.closed, "merge");
    add_checked(report.nodes, r.nodes, "merge");
    journal += journal_line(r, format);
  }
  write_file_atomically(dir / run_layout::journal_name(0), journal);

  report.inputs = inputs.size();
  report.prefixes = plan_size;
  report.prefixes_done = owner.size();
  for (std::size_t id = 0; id < plan_size; ++id) {
    if (!owner.count(id)) report.missing.push_back(id);
  }
  report.files = part;

  const RunManifest m = merged_manifest(inputs, report, options.provenance);
  report.nodes_searched = m.nodes_searched;
  report.cpu_seconds = m.cpu_seconds;
  write_manifest(dir, m);
  built.publish();
  return report;
}

}  // namespace knightstour
