#include "report_printer.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "flag_names.hpp"
#include "json_counts.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

int print_report(const Report& report, bool json) {
  if (json) {
    // Spelled before the provenance goes in: the command line is the user's, as typed.
    nlohmann::json j = nlohmann::json::parse(spell_flags(report.json));
    if (report.stamped) add_provenance(j);
    print_json_object(j);
  } else {
    for (const std::string& line : report.lines) std::printf("%s\n", spell_flags(line).c_str());
  }
  switch (report.outcome) {
    case Report::Outcome::complete:
      return kExitOk;
    case Report::Outcome::stopped:
      return kExitStopped;
    case Report::Outcome::failed:
      return kExitVerifyFailed;
    case Report::Outcome::unreadable:
      return kExitUsage;
  }
  return kExitFailure;
}

}  // namespace knightstour::cli
