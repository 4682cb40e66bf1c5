#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/report/reports.hpp"
#include "knightstour/report/words.hpp"
#include "report_text.hpp"

namespace knightstour {

namespace {

namespace fs = std::filesystem;

using report_text::json_count;
using report_text::put;

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
          {"job", job_text(s)},
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

void put_text(std::string& t, const Standing& standing) {
  const fs::path& dir = standing.dir;
  const std::vector<RunStanding>& runs = standing.runs;
  if (!standing.root) {
    const RunStanding& s = runs.front();
    const std::string job = job_text(s);
    put(t, "run        %s%s%s%s%s\n", dir.c_str(), job.empty() ? "" : ": ", job.c_str(),
        s.shard.count > 1 ? (", " + share_name(s) + " " + std::to_string(s.shard.index) + " of " +
                             std::to_string(s.shard.count))
                                .c_str()
                          : "",
        s.merged ? " (merged)" : "");
    if (s.problem.empty()) {
      put(t, "%-10s %s\n", plural(s.unit).c_str(), progress_text(s, false).c_str());
    } else {
      // One line says what is wrong; nothing else from a run that does not read.
      put(t, "status     DAMAGED: %s\n", s.problem.c_str());
      return;
    }
    put(t, "status     %s\n", state_text(s).c_str());
    if (s.complete() && s.tours) {
      put(t, "tours      %s%s%s\n", s.tours->with_commas().c_str(),
          s.modulus != 0
              ? (" (mod " + std::to_string(s.modulus) + ": a residue, not the count)").c_str()
              : "",
          s.shard.count > 1 && s.modulus == 0
              ? " (this shard's share: merge every shard for the job's)"
              : "");
    } else if (!s.complete() && s.problem.empty()) {
      const std::uint64_t left = s.planned - std::min(s.planned, s.done);
      put(t, "left       %s", how_many(left, s.unit).c_str());
      if (!s.under_way_unit.empty() && left > 0) {
        // A row: the short lengths cost little each, and one sweep counts the rest at once.
        put(t, ", counted as the sweep across the rows passes their lengths");
      } else if (s.done > 0 && left > 0 && s.cpu_seconds > 0 && !s.running) {
        // (A running session's CPU time reaches the manifest when it ends: no mean before.)
        put(t, ", about %s at the mean of those done (a rough guide: they differ in cost)",
            seconds_text(s.cpu_seconds / static_cast<double>(s.done) * static_cast<double>(left))
                .c_str());
      }
      if (s.running) {
        put(t, "\n");
      } else {
        put(t, "\nnext       knightstour count $run_dir %s $resume%s\n", dir.c_str(),
            s.ranks > 1 ? " (under mpirun, as many ranks)" : "");
      }
    }
    return;
  }
  if (runs.empty()) {
    // Submitted, and no shard has made its directory yet (they wait in the queue).
    put(t, "root       %s: %s\n", dir.c_str(), standing.submitted.c_str());
    put(t, "shards     none started yet (squeue shows the array waiting or starting)\n");
    return;
  }
  const JobTotals& totals = standing.totals;
  put(t, "root       %s: %s\n", dir.c_str(),
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
      put(t, "merged     %s: %s; %s\n", name.c_str(), state_text(s).c_str(),
          s.problem.empty() ? progress_text(s).c_str() : "");
    } else if (!s.problem.empty()) {
      put(t, "           %s: %s\n", name.c_str(), state_text(s).c_str());
    } else if (!(fold && s.complete())) {
      put(t, "%s %-*d %s%s: %s; %s\n", s.modulus != 0 ? "unit" : "shard", s.modulus != 0 ? 5 : 4,
          s.shard.index, name.c_str(),
          s.modulus != 0 ? (" (modulo " + std::to_string(s.modulus) + ")").c_str() : "",
          progress_text(s).c_str(), state_text(s).c_str());
    }
  }
  if (fold) {
    put(t, "complete   %s (not listed one by one; $json lists every shard)\n",
        how_many(complete_shards, "shard").c_str());
  }
  put(t, "%-10s %s of %s finished over %d of %d %s; %s\n", plural(totals.unit).c_str(),
      with_commas(totals.done).c_str(), with_commas(totals.planned).c_str(), totals.shards_found,
      totals.shard_count, plural(totals.residues ? "residue unit" : "shard").c_str(),
      seconds_text(totals.cpu_seconds).c_str());
  if (!totals.problems.empty()) {
    // Not a set merge would take: no total, and no merge to suggest.
    for (const auto& p : totals.problems) put(t, "problem    %s\n", p.c_str());
    return;
  }
  const auto merged = std::find_if(runs.begin(), runs.end(),
                                   [](const RunStanding& s) { return s.merged && s.complete(); });
  if (merged != runs.end() && merged->tours) {
    put(t, "tours      %s (from %s)\n", merged->tours->with_commas().c_str(),
        fs::path(merged->dir).filename().c_str());
    return;
  }
  if (totals.done < totals.planned) {
    put(t, "left       %s", how_many(totals.planned - totals.done, totals.unit).c_str());
    if (totals.done > 0 && totals.cpu_seconds > 0 && totals.running == 0) {
      put(t, ", about %s at the mean of those done (a rough guide: they differ in cost)",
          seconds_text(totals.cpu_left()).c_str());
    }
    if (totals.running > 0) {
      put(t, "\nrunning    %s\n",
          how_many(static_cast<std::uint64_t>(totals.running), "shard").c_str());
    } else {
      put(t,
          "\nnext       submit the job again (the same scripts/slurm/submit command), or resume "
          "each unfinished shard (knightstour count $run_dir SHARD $resume): each goes on where "
          "it stopped\n");
    }
  } else if (totals.tours || (totals.residues && totals.complete == totals.shard_count)) {
    if (totals.tours) {
      put(t, "tours      %s (summed over the shards)\n", totals.tours->with_commas().c_str());
    } else {
      put(t,
          "residues   every unit finished: merge combines them into the counts, the "
          "spare prime checking the others\n");
    }
    std::string shards;
    for (const auto& s : runs) {
      if (!s.merged) shards += " " + s.dir.string();
    }
    if (runs.size() > 6) shards = " " + (dir / "shard-*").string();
    put(t, "next       knightstour merge%s $out %s\n", shards.c_str(), (dir / "merged").c_str());
  }
}

std::string json_of(const Standing& standing) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : standing.runs) list.push_back(standing_json(s));
  nlohmann::json j{{"dir", standing.dir.string()}, {"root", standing.root}, {"runs", list}};
  if (standing.root) {
    const JobTotals& t = standing.totals;
    j["planned"] = t.planned;
    j["done"] = t.done;
    j["shards_found"] = t.shards_found;
    j["shard_count"] = t.shard_count;
    j["cpu_seconds"] = t.cpu_seconds;
    j["cpu_seconds_left"] = t.cpu_left();
    j["problems"] = t.problems;
  }
  return j.dump();
}

}  // namespace

Report report_of(const Standing& standing) {
  Report out;
  out.json = json_of(standing);
  out.stamped = false;
  std::string t;
  put_text(t, standing);
  out.lines = report_text::lines_of(t);
  if (!standing.readable()) {
    out.outcome = Report::Outcome::unreadable;
  } else if (standing.root && !standing.totals.problems.empty()) {
    out.outcome = Report::Outcome::failed;
  }
  return out;
}

}  // namespace knightstour
