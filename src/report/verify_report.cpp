#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/report/reports.hpp"
#include "knightstour/report/words.hpp"
#include "report_text.hpp"

namespace knightstour {

namespace {

using report_text::put;

void frontier_verdict(Report& out, const FrontierRunVerdict& f) {
  const FrontierVerdict& v = f.verdict;
  nlohmann::json j{{"ok", v.ok},
                   {"problem", v.ok ? nlohmann::json(nullptr) : nlohmann::json(v.problem)},
                   {"method", "frontier"},
                   {"checked", v.checked}};
  out.json = j.dump();
  std::string t;
  if (v.ok) {
    put(t, "verify: OK: frontier run %s (no tours to check: it holds counts and checkpoints)\n",
        f.dir.c_str());
  } else {
    put(t, "verify: FAILED: %s\n", v.problem.c_str());
  }
  for (const auto& c : v.checked) put(t, "checked: %s\n", c.c_str());
  out.lines = report_text::lines_of(t);
}

void summed_verdict(Report& out, const SummedVerdict& v) {
  const VerifyReport& total = v.total;
  nlohmann::json j{
      {"ok", total.ok},
      {"problem", total.ok ? nlohmann::json(nullptr) : nlohmann::json(total.problem)},
      {"files", total.files},
      {"tours", total.tours + total.counted},  // checked in files, or journaled by count runs
      {"counted_tours", total.counted},
      {"closed_tours", total.closed},
      {"prefixes", total.prefixes},
      {"prefixes_journaled", total.prefixes_journaled},
      {"notes", total.notes}};
  out.json = j.dump();
  std::string t;
  if (total.ok && total.files == 0 && total.counted > 0) {
    // A count run holds counts, not tours: say what was checked, not "tours in 0 files".
    put(t, "verify: OK: count run%s of %s tours (%s closed); no tour files to check",
        v.reports == 1 ? "" : "s", with_commas(total.counted).c_str(),
        with_commas(total.closed).c_str());
    put(t, "; %s of %s prefixes journaled, bookkeeping consistent\n",
        with_commas(total.prefixes_journaled).c_str(), with_commas(total.prefixes).c_str());
  } else if (total.ok) {
    put(t, "verify: OK: %s tour%s in %s file%s, each a distinct knight's tour (%s closed)",
        with_commas(total.tours).c_str(), total.tours == 1 ? "" : "s",
        with_commas(total.files).c_str(), total.files == 1 ? "" : "s",
        with_commas(total.closed).c_str());
    if (total.prefixes > 0) {
      put(t, "; %s of %s prefixes journaled, bookkeeping consistent",
          with_commas(total.prefixes_journaled).c_str(), with_commas(total.prefixes).c_str());
    }
    put(t, "\n");
  } else {
    put(t, "verify: FAILED: %s\n", total.problem.c_str());
  }
  for (const auto& n : total.notes) put(t, "note: %s\n", n.c_str());
  out.lines = report_text::lines_of(t);
}

}  // namespace

Report report_of(const Verdict& verdict) {
  Report out;
  if (const auto* f = std::get_if<FrontierRunVerdict>(&verdict)) {
    frontier_verdict(out, *f);
  } else {
    summed_verdict(out, std::get<SummedVerdict>(verdict));
  }
  if (!verdict_ok(verdict)) out.outcome = Report::Outcome::failed;
  out.stamped = false;
  return out;
}

}  // namespace knightstour
