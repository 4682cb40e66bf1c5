#include <algorithm>
#include <fstream>
#include <map>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/count/run_standing.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour {

namespace {

namespace fs = std::filesystem;

// The job scripts/slurm/submit recorded in a RUN_ROOT ("shards 4: knightstour count ..."), or
// "" where there is none.
std::string submitted_job(const fs::path& dir) {
  std::ifstream in(dir / "job");
  std::string line;
  std::getline(in, line);
  return line;
}

// The runs in `dir`: itself when it holds one, else its folders that do (the shards of a
// job and its merged/), shards by index.
std::vector<RunStanding> runs_in(const fs::path& dir, bool& root) {
  check_readable_run_path(dir);
  std::vector<RunStanding> out;
  root = !holds_run(dir);
  if (!root) {
    out.push_back(read_standing(dir));
    return out;
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw UsageError(dir.string() + " is not a directory");
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory(ec) && holds_run(entry.path()))
      out.push_back(read_standing(entry.path()));
  }
  // A RUN_ROOT that scripts/slurm/submit made (its `job` file) before any shard started.
  if (out.empty() && submitted_job(dir).empty()) {
    throw UsageError(dir.string() +
                     " holds no run, and no folder in it does (a run directory "
                     "has a manifest.json)");
  }
  std::sort(out.begin(), out.end(), [](const RunStanding& a, const RunStanding& b) {
    if (a.merged != b.merged) return b.merged;
    if (a.shard.index != b.shard.index) return a.shard.index < b.shard.index;
    return a.dir < b.dir;
  });
  return out;
}

// Names what keeps the shards in `runs` from being one job's set, one of each shard, into
// `out`; returns the shards that are (the first readable one's job, each index once).
std::vector<const RunStanding*> one_set(const std::vector<RunStanding>& runs,
                                        std::vector<std::string>& out) {
  const RunStanding* first = nullptr;
  std::map<int, const RunStanding*> by_index;
  auto name = [](const RunStanding& s) { return fs::path(s.dir).filename().string(); };
  for (const auto& s : runs) {
    if (s.merged) continue;
    if (!s.problem.empty()) {
      out.push_back(name(s) + " does not read (knightstour verify " + s.dir.string() +
                    " names the problem)");
      continue;
    }
    if (first == nullptr) first = &s;
    if (s.job_key != first->job_key || s.shard.count != first->shard.count) {
      out.push_back(name(s) + " is shard " + std::to_string(s.shard.index) + " of " +
                    std::to_string(s.shard.count) + " of " + job_text(s) + ", another job than " +
                    name(*first) + "'s (shard " + std::to_string(first->shard.index) + " of " +
                    std::to_string(first->shard.count) + " of " + job_text(*first) + ")");
      continue;
    }
    const auto [it, fresh] = by_index.emplace(s.shard.index, &s);
    if (!fresh) {
      out.push_back(name(*it->second) + " and " + name(s) + " both hold " + share_name(s) + " " +
                    std::to_string(s.shard.index) +
                    " (the same shard twice: its count would be "
                    "summed twice)");
    }
  }
  if (first != nullptr) {
    std::string missing;
    int n = 0;
    for (int i = 0; i < first->shard.count; ++i) {
      if (by_index.count(i)) continue;
      if (n++ < 10) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    }
    if (n > 10) missing += ", ...";
    if (n > 0) {
      out.push_back(how_many(static_cast<std::uint64_t>(n), share_name(*first)) + " of " +
                    std::to_string(first->shard.count) + " not found here (" + missing +
                    "): not started, or elsewhere");
    }
  }
  std::vector<const RunStanding*> set;
  for (const auto& [index, s] : by_index) set.push_back(s);
  return set;
}

JobTotals totals_of(const std::vector<RunStanding>& runs) {
  JobTotals t;
  BigCount tours;
  for (const RunStanding* one : one_set(runs, t.problems)) {
    const RunStanding& s = *one;
    ++t.shards_found;
    t.planned = s.planned_in_job;
    t.shard_count = s.shard.count;
    t.unit = s.unit;
    t.residues = s.modulus != 0;
    t.done += s.done;
    t.cpu_seconds += s.cpu_seconds;
    if (s.running) ++t.running;
    if (s.complete()) {
      ++t.complete;
      if (s.tours) tours += *s.tours;
    }
  }
  if (t.problems.empty() && t.complete == t.shard_count && t.shards_found == t.shard_count &&
      !t.residues)
    t.tours = tours;
  return t;
}

}  // namespace

std::string share_name(const RunStanding& s) { return s.modulus != 0 ? "residue unit" : "shard"; }

std::string job_text(const RunStanding& s) {
  return s.modulus != 0 ? s.job + ", modulo " + std::to_string(s.modulus) : s.job;
}

double JobTotals::cpu_left() const {
  return done == 0 || planned <= done
             ? 0.0
             : cpu_seconds / static_cast<double>(done) * static_cast<double>(planned - done);
}

bool Standing::readable() const {
  return std::all_of(runs.begin(), runs.end(),
                     [](const RunStanding& s) { return s.problem.empty(); });
}

Standing read_standings(const fs::path& dir) {
  Standing s;
  s.dir = dir;
  s.runs = runs_in(dir, s.root);
  s.totals = totals_of(s.runs);
  if (s.root) s.submitted = submitted_job(dir);
  return s;
}

}  // namespace knightstour
