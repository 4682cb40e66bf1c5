#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "commands.hpp"
#include "flag_names.hpp"
#include "json_counts.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/count/run_standing.hpp"
#include "knightstour/report/words.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour::cli {

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

// One run's standing, its problem in the command line's words.
RunStanding standing_of(const fs::path& dir) {
  RunStanding s = read_standing(dir);
  s.problem = spell_flags(s.problem);
  return s;
}

// The runs in `dir`: itself when it holds one, else its folders that do (the shards of a
// job and its merged/), shards by index.
std::vector<RunStanding> runs_in(const fs::path& dir, bool& root) {
  check_readable_run_path(dir);
  std::vector<RunStanding> out;
  root = !holds_run(dir);
  if (!root) {
    out.push_back(standing_of(dir));
    return out;
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw UsageError(dir.string() + " is not a directory");
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory(ec) && holds_run(entry.path())) out.push_back(standing_of(entry.path()));
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

// Complete shards past this many are summed on one line rather than listed.
constexpr std::size_t kListedShards = 12;

std::string seconds_text(double s) {
  char b[48];
  std::snprintf(b, sizeof b, "%.1f CPU-seconds", s);
  return b;
}

// "12 of 31 units finished, unit 45 under way from step 30; 40.1 CPU-seconds" (without the
// noun after a line's heading that names it).
std::string progress_text(const RunStanding& s, bool noun = true) {
  std::string t = with_commas(s.done) + " of " +
                  (noun ? how_many(s.planned, s.unit) : with_commas(s.planned)) + " finished";
  for (const auto& [sweep, step] : s.under_way) {
    t += ", " + (s.under_way_unit.empty() ? s.unit : s.under_way_unit) + " " +
         std::to_string(sweep) + " under way from step " + std::to_string(step);
  }
  return t + "; " + seconds_text(s.cpu_seconds);
}

std::string state_text(const RunStanding& s) {
  if (!s.problem.empty()) return "DAMAGED: " + s.problem;
  if (s.complete()) return "complete";
  if (s.running) return "running (process " + std::to_string(*s.running) + ")";
  return "incomplete" + (s.stop_reason == StopReason::none || s.stop_reason == StopReason::failure
                             ? std::string()
                             : " (" + describe(s.stop_reason) + ")");
}

nlohmann::json standing_json(const RunStanding& s) {
  nlohmann::json under = nlohmann::json::array();
  for (const auto& [sweep, step] : s.under_way) under.push_back({{"sweep", sweep}, {"step", step}});
  auto count = [](const std::optional<BigCount>& c) {
    return c ? json_count(*c) : nlohmann::json(nullptr);
  };
  return {{"dir", s.dir.string()},
          {"method", to_string(s.method)},
          {"job", s.job},
          {"by", s.unit},
          {"shard", {{"index", s.shard.index}, {"count", s.shard.count}}},
          {"ranks", s.ranks},
          {"merged", s.merged},
          {"planned", s.planned},
          {"done", s.done},
          {"under_way", under},
          {"status", s.problem.empty() ? to_string(s.status) : "damaged"},
          {"stop_reason",
           s.complete() ? nlohmann::json(nullptr) : nlohmann::json(token(s.stop_reason))},
          {"problem", s.problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.problem)},
          {"running_pid", s.running ? nlohmann::json(*s.running) : nlohmann::json(nullptr)},
          {"cpu_seconds", s.cpu_seconds},
          {"seconds", s.seconds},
          {"sessions", s.sessions},
          {"modulus", s.modulus != 0 ? nlohmann::json(s.modulus) : nlohmann::json(nullptr)},
          {"tours", count(s.tours)},
          {"closed_tours", count(s.closed_tours)},
          {"closed_cycles", count(s.closed_cycles)}};
}

// Over the shards of a job (a merge of them aside): what is done, what is left and roughly
// what it costs at the mean of what is done.
struct Totals {
  std::uint64_t planned = 0;  // the job's, when the shards agree on it
  std::uint64_t done = 0;
  double cpu_seconds = 0;
  int shards_found = 0;
  int shard_count = 1;
  int complete = 0;
  int running = 0;
  std::string unit = "unit";
  bool residues = false;          // the shards are residue units: their counts do not sum
  std::optional<BigCount> tours;  // summed over complete shards, when all are
  // Why the shards found are not a set merge would take (no total is summed then): a shard
  // damaged, of another job, given twice, or missing.
  std::vector<std::string> problems;
  double cpu_left() const {
    return done == 0 || planned <= done
               ? 0.0
               : cpu_seconds / static_cast<double>(done) * static_cast<double>(planned - done);
  }
};

// What one share of a job is called: a shard, or a residue unit (count --residue-unit).
std::string share(const RunStanding& s) { return s.modulus != 0 ? "residue unit" : "shard"; }

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
                    std::to_string(s.shard.count) + " of " + s.job + ", another job than " +
                    name(*first) + "'s (shard " + std::to_string(first->shard.index) + " of " +
                    std::to_string(first->shard.count) + " of " + first->job + ")");
      continue;
    }
    const auto [it, fresh] = by_index.emplace(s.shard.index, &s);
    if (!fresh) {
      out.push_back(name(*it->second) + " and " + name(s) + " both hold " + share(s) + " " +
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
      out.push_back(how_many(static_cast<std::uint64_t>(n), share(*first)) + " of " +
                    std::to_string(first->shard.count) + " not found here (" + missing +
                    "): not started, or elsewhere");
    }
  }
  std::vector<const RunStanding*> set;
  for (const auto& [index, s] : by_index) set.push_back(s);
  return set;
}

Totals totals_of(const std::vector<RunStanding>& runs) {
  Totals t;
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

void print_text(const fs::path& dir, bool root, const std::vector<RunStanding>& runs) {
  if (!root) {
    const RunStanding& s = runs.front();
    std::printf("run        %s%s%s%s%s\n", dir.c_str(), s.job.empty() ? "" : ": ", s.job.c_str(),
                s.shard.count > 1 ? (", " + share(s) + " " + std::to_string(s.shard.index) +
                                     " of " + std::to_string(s.shard.count))
                                        .c_str()
                                  : "",
                s.merged ? " (merged)" : "");
    if (s.problem.empty()) {
      std::printf("%-10s %s\n", plural(s.unit).c_str(), progress_text(s, false).c_str());
    } else {
      // One line says what is wrong; nothing else from a run that does not read.
      std::printf("status     DAMAGED: %s\n", s.problem.c_str());
      return;
    }
    std::printf("status     %s\n", state_text(s).c_str());
    if (s.complete() && s.tours) {
      std::printf(
          "tours      %s%s%s\n", s.tours->with_commas().c_str(),
          s.modulus != 0
              ? (" (mod " + std::to_string(s.modulus) + ": a residue, not the count)").c_str()
              : "",
          s.shard.count > 1 && s.modulus == 0
              ? " (this shard's share: merge every shard for the job's)"
              : "");
    } else if (!s.complete() && s.problem.empty()) {
      const std::uint64_t left = s.planned - std::min(s.planned, s.done);
      std::printf("left       %s", how_many(left, s.unit).c_str());
      if (!s.under_way_unit.empty() && left > 0) {
        // A row: the short lengths cost little each, and one sweep counts the rest at once.
        std::printf(", counted as the sweep across the rows passes their lengths");
      } else if (s.done > 0 && left > 0 && s.cpu_seconds > 0 && !s.running) {
        // (A running session's CPU time reaches the manifest when it ends: no mean before.)
        std::printf(
            ", about %s at the mean of those done (a rough guide: they differ in cost)",
            seconds_text(s.cpu_seconds / static_cast<double>(s.done) * static_cast<double>(left))
                .c_str());
      }
      if (s.running) {
        std::printf("\n");
      } else {
        std::printf("\nnext       knightstour count --run-dir %s --resume%s\n", dir.c_str(),
                    s.ranks > 1 ? " (under mpirun, as many ranks)" : "");
      }
    }
    return;
  }
  if (runs.empty()) {
    // Submitted, and no shard has made its directory yet (they wait in the queue).
    std::printf("root       %s: %s\n", dir.c_str(), submitted_job(dir).c_str());
    std::printf("shards     none started yet (squeue shows the array waiting or starting)\n");
    return;
  }
  const Totals t = totals_of(runs);
  std::printf("root       %s: %s\n", dir.c_str(),
              runs.front().job.empty() ? "runs" : runs.front().job.c_str());
  // Many shards (136 for 8x8 open): the complete ones on one line, the others each on its own.
  const auto complete_shards =
      static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), [](const RunStanding& s) {
        return !s.merged && s.problem.empty() && s.complete();
      }));
  const bool fold = complete_shards > kListedShards;
  for (const auto& s : runs) {
    const std::string name = fs::path(s.dir).filename().string();
    if (s.merged) {
      std::printf("merged     %s: %s; %s\n", name.c_str(), state_text(s).c_str(),
                  s.problem.empty() ? progress_text(s).c_str() : "");
    } else if (!s.problem.empty()) {
      std::printf("           %s: %s\n", name.c_str(), state_text(s).c_str());
    } else if (!(fold && s.complete())) {
      std::printf("%s %-*d %s: %s; %s\n", s.modulus != 0 ? "unit" : "shard", s.modulus != 0 ? 5 : 4,
                  s.shard.index, name.c_str(), progress_text(s).c_str(), state_text(s).c_str());
    }
  }
  if (fold) {
    std::printf("complete   %s (not listed one by one; --json lists every shard)\n",
                how_many(complete_shards, "shard").c_str());
  }
  std::printf("%-10s %s of %s finished over %d of %d %s; %s\n", plural(t.unit).c_str(),
              with_commas(t.done).c_str(), with_commas(t.planned).c_str(), t.shards_found,
              t.shard_count, plural(t.residues ? "residue unit" : "shard").c_str(),
              seconds_text(t.cpu_seconds).c_str());
  if (!t.problems.empty()) {
    // Not a set merge would take: no total, and no merge to suggest.
    for (const auto& p : t.problems) std::printf("problem    %s\n", p.c_str());
    return;
  }
  const auto merged = std::find_if(runs.begin(), runs.end(),
                                   [](const RunStanding& s) { return s.merged && s.complete(); });
  if (merged != runs.end() && merged->tours) {
    std::printf("tours      %s (from %s)\n", merged->tours->with_commas().c_str(),
                fs::path(merged->dir).filename().c_str());
    return;
  }
  if (t.done < t.planned) {
    std::printf("left       %s", how_many(t.planned - t.done, t.unit).c_str());
    if (t.done > 0 && t.cpu_seconds > 0 && t.running == 0) {
      std::printf(", about %s at the mean of those done (a rough guide: they differ in cost)",
                  seconds_text(t.cpu_left()).c_str());
    }
    if (t.running > 0) {
      std::printf("\nrunning    %s\n",
                  how_many(static_cast<std::uint64_t>(t.running), "shard").c_str());
    } else {
      std::printf(
          "\nnext       submit the job again (the same scripts/slurm/submit command), or resume "
          "each unfinished shard (knightstour count --run-dir SHARD --resume): each goes on where "
          "it stopped\n");
    }
  } else if (t.tours || (t.residues && t.complete == t.shard_count)) {
    if (t.tours) {
      std::printf("tours      %s (summed over the shards)\n", t.tours->with_commas().c_str());
    } else {
      std::printf(
          "residues   every unit finished: merge combines them into the counts, the "
          "spare prime checking the others\n");
    }
    std::string shards;
    for (const auto& s : runs) {
      if (!s.merged) shards += " " + s.dir.string();
    }
    if (runs.size() > 6) shards = " " + (dir / "shard-*").string();
    std::printf("next       knightstour merge%s --out %s\n", shards.c_str(),
                (dir / "merged").c_str());
  }
}

}  // namespace

int status_command(int argc, char** argv) {
  auto options = command_options(
      "status",
      "Where a run stands, read without writing or locking: a run directory (of either method, "
      "a merged one), or a folder of shard directories",
      "DIR [--json]", "dirs", "A run directory, or the folder holding a job's shard directories");
  options.add_options("Output")("json", "Print it as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "dirs", argc, argv, result)) return kExitOk;
  if (!result.count("dirs"))
    throw UsageError("status needs a run directory: knightstour status DIR");
  const auto dirs = result["dirs"].as<std::vector<std::string>>();
  if (dirs.size() != 1) throw UsageError("status takes one directory");
  const fs::path dir = dirs.front();
  bool root = false;
  const std::vector<RunStanding> runs = runs_in(dir, root);
  if (result.count("json")) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& s : runs) list.push_back(standing_json(s));
    const Totals t = totals_of(runs);
    nlohmann::json j{{"dir", dir.string()}, {"root", root}, {"runs", list}};
    if (root) {
      j["planned"] = t.planned;
      j["done"] = t.done;
      j["shards_found"] = t.shards_found;
      j["shard_count"] = t.shard_count;
      j["cpu_seconds"] = t.cpu_seconds;
      j["cpu_seconds_left"] = t.cpu_left();
      j["problems"] = t.problems;
    }
    print_json_object(j);
  } else {
    print_text(dir, root, runs);
  }
  const bool readable =
      std::all_of(runs.begin(), runs.end(), [](const RunStanding& s) { return s.problem.empty(); });
  if (!readable) return kExitUsage;
  return root && !totals_of(runs).problems.empty() ? kExitVerifyFailed : kExitOk;
}

}  // namespace knightstour::cli
