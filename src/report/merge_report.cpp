#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/report/reports.hpp"
#include "knightstour/report/words.hpp"
#include "report_text.hpp"

namespace knightstour {

namespace {

using report_text::json_count;
using report_text::say;

std::string listed(const std::vector<std::uint64_t>& primes) {
  std::string text;
  for (const std::uint64_t p : primes) text += (text.empty() ? "" : ", ") + std::to_string(p);
  return text;
}

// A frontier count's units: of end pairs (shards), or residue units.
void frontier_merge(Report& out, const FrontierMergeReport& r, const std::string& dir) {
  nlohmann::json j{{"inputs", r.inputs},
                   {"method", "frontier"},
                   {"units", r.units},
                   {"units_done", r.units_done},
                   {"missing_units", r.missing},
                   {"tours", r.complete() ? json_count(r.tours) : nullptr},
                   {"closed_tours", r.complete() ? json_count(r.closed_tours) : nullptr},
                   {"closed_cycles", r.complete() ? json_count(r.cycles) : nullptr},
                   {"cpu_seconds", r.cpu_seconds},
                   {"status", r.complete() ? "complete" : "incomplete"}};
  j["moduli"] = r.moduli;  // residue units: the primes combined, and the spares checked
  j["spare_moduli"] = r.spares;
  out.json = j.dump();
  if (!r.moduli.empty()) {
    say(out, "merged     %s of a frontier count into %s\n",
        how_many(r.inputs, "residue unit").c_str(), dir.c_str());
    say(out,
        "residues   modulo %s, combined by the Chinese remainder theorem; checked by "
        "the spare%s modulo %s\n",
        listed(r.moduli).c_str(), r.spares.size() == 1 ? "" : "s", listed(r.spares).c_str());
    say(out, "tours      %s\n", r.tours.with_commas().c_str());
    say(out, "closed     %s: %s closed cycles\n", r.closed_tours.with_commas().c_str(),
        r.cycles.with_commas().c_str());
    say(out, "cost       %.1f CPU-seconds over every session of every unit\n", r.cpu_seconds);
    say(out, "status     complete: exact counts (count $run_dir %s $resume prints them all)\n",
        dir.c_str());
    return;
  }
  say(out, "merged     %s of a frontier count into %s\n", how_many(r.inputs, "shard").c_str(),
      dir.c_str());
  say(out, "units      %s of %s of end pairs\n",
      with_commas(static_cast<std::uint64_t>(r.units_done)).c_str(),
      how_many(static_cast<std::uint64_t>(r.units), "unit").c_str());
  if (r.complete()) {
    say(out, "tours      %s\n", r.tours.with_commas().c_str());
    say(out, "closed     %s: %s closed cycles\n", r.closed_tours.with_commas().c_str(),
        r.cycles.with_commas().c_str());
    say(out, "cost       %.1f CPU-seconds over every session of every shard\n", r.cpu_seconds);
    say(out, "status     complete (count $run_dir %s $resume prints the grid)\n", dir.c_str());
  } else {
    say(out,
        "status     INCOMPLETE: %zu units are not finished; no count (count $run_dir %s "
        "$resume counts them)\n",
        r.missing.size(), dir.c_str());
  }
}

// The enumerator's shards.
void enumerator_merge(Report& out, const MergeReport& r, const std::string& dir) {
  nlohmann::json j{{"inputs", r.inputs},
                   {"prefixes", r.prefixes},
                   {"prefixes_done", r.prefixes_done},
                   {"missing", r.missing},
                   {"tours", r.tours},
                   {"closed_tours", r.closed},
                   {"nodes", r.nodes},
                   {"nodes_searched", r.nodes_searched},
                   {"cpu_seconds", r.cpu_seconds},
                   {"files", r.files},
                   {"status", r.complete() ? "complete" : "incomplete"},
                   {"lower_bound", !r.complete()},
                   {"notes", r.notes}};
  out.json = j.dump();
  const std::string ge = r.complete() ? "" : ">= ";
  say(out, "merged     %s into %s\n", how_many(r.inputs, "run").c_str(), dir.c_str());
  say(out, "prefixes   %s of %s\n", with_commas(r.prefixes_done).c_str(),
      with_commas(r.prefixes).c_str());
  say(out, "tours      %s%s\n", ge.c_str(), with_commas(r.tours).c_str());
  say(out, "closed     %s%s\n", ge.c_str(), with_commas(r.closed).c_str());
  say(out, "cost       %s nodes searched, %.1f CPU-seconds, over every session of every input\n",
      with_commas(r.nodes_searched).c_str(), r.cpu_seconds);
  if (!r.complete()) {
    std::string ids;
    for (std::size_t i = 0; i < r.missing.size() && i < 10; ++i)
      ids += (i ? ", " : "") + std::to_string(r.missing[i]);
    if (r.missing.size() > 10) ids += ", ...";
    say(out, "status     INCOMPLETE: %zu prefixes are missing (ids %s); counts are lower bounds\n",
        r.missing.size(), ids.c_str());
  } else {
    say(out, "status     complete\n");
  }
  for (const auto& n : r.notes) say(out, "note: %s\n", n.c_str());
}

}  // namespace

Report report_of(const Merged& merged) {
  Report out;
  const std::string dir = merged.out.string();
  if (const auto* f = std::get_if<FrontierMergeReport>(&merged.report)) {
    frontier_merge(out, *f, dir);
  } else {
    enumerator_merge(out, std::get<MergeReport>(merged.report), dir);
  }
  if (!merged.complete()) out.outcome = Report::Outcome::stopped;
  return out;
}

}  // namespace knightstour
