#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "commands.hpp"
#include "json_counts.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier_run/merge_frontier.hpp"
#include "knightstour/run/merge.hpp"
#include "knightstour/run/run_directory.hpp"
#include "output.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

// The shards of a frontier count (units of end pairs).
int merge_frontier(const std::vector<std::filesystem::path>& dirs, const std::string& out,
                   bool json) {
  const auto report = merge_frontier_runs(dirs, out, provenance());
  if (json) {
    nlohmann::json j{
        {"inputs", report.inputs},
        {"method", "frontier"},
        {"units", report.units},
        {"units_done", report.units_done},
        {"missing_units", report.missing},
        {"tours", report.complete() ? json_count(report.tours) : nullptr},
        {"closed_tours", report.complete() ? json_count(report.closed_tours) : nullptr},
        {"closed_cycles", report.complete() ? json_count(report.cycles) : nullptr},
        {"cpu_seconds", report.cpu_seconds},
        {"status", report.complete() ? "complete" : "incomplete"}};
    j["moduli"] = report.moduli;  // residue units: the primes combined, and the spares checked
    j["spare_moduli"] = report.spares;
    add_provenance(j);
    print_json_object(j);
  } else if (!report.moduli.empty()) {
    const auto listed = [](const std::vector<std::uint64_t>& primes) {
      std::string text;
      for (const std::uint64_t p : primes) text += (text.empty() ? "" : ", ") + std::to_string(p);
      return text;
    };
    const std::string primes = listed(report.moduli);
    const std::string spares = listed(report.spares);
    std::printf("merged     %s of a frontier count into %s\n",
                how_many(report.inputs, "residue unit").c_str(), out.c_str());
    std::printf(
        "residues   modulo %s, combined by the Chinese remainder theorem; checked by "
        "the spare%s modulo %s\n",
        primes.c_str(), report.spares.size() == 1 ? "" : "s", spares.c_str());
    std::printf("tours      %s\n", report.tours.with_commas().c_str());
    std::printf("closed     %s: %s closed cycles\n", report.closed_tours.with_commas().c_str(),
                report.cycles.with_commas().c_str());
    std::printf("cost       %.1f CPU-seconds over every session of every unit\n",
                report.cpu_seconds);
    std::printf("status     complete: exact counts (count --run-dir %s --resume prints them all)\n",
                out.c_str());
  } else {
    std::printf("merged     %s of a frontier count into %s\n",
                how_many(report.inputs, "shard").c_str(), out.c_str());
    std::printf("units      %s of %s of end pairs\n",
                with_commas(static_cast<std::uint64_t>(report.units_done)).c_str(),
                how_many(static_cast<std::uint64_t>(report.units), "unit").c_str());
    if (report.complete()) {
      std::printf("tours      %s\n", report.tours.with_commas().c_str());
      std::printf("closed     %s: %s closed cycles\n", report.closed_tours.with_commas().c_str(),
                  report.cycles.with_commas().c_str());
      std::printf("cost       %.1f CPU-seconds over every session of every shard\n",
                  report.cpu_seconds);
      std::printf("status     complete (count --run-dir %s --resume prints the grid)\n",
                  out.c_str());
    } else {
      std::printf(
          "status     INCOMPLETE: %zu units are not finished; no count (count --run-dir %s "
          "--resume counts them)\n",
          report.missing.size(), out.c_str());
    }
  }
  return report.complete() ? kExitOk : kExitStopped;
}

}  // namespace

int merge_command(int argc, char** argv) {
  auto options = command_options(
      "merge", "Combine shard run directories into one, checking that they cover every prefix once",
      "DIR... --out DIR", "dirs", "Shard run directories");
  options.add_options()("out", "The merged run directory (new)", cxxopts::value<std::string>());
  options.add_options()("skip-tour-check",
                        "Check each input's manifest, journal and file sizes, not every tour "
                        "(faster; by default every tour is checked as verify does)");
  options.add_options("Output")("json", "Print the result as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "dirs", argc, argv, result)) return kExitOk;
  if (!result.count("dirs"))
    throw UsageError("merge needs the shard run directories: knightstour merge DIR... --out DIR");
  if (!result.count("out"))
    throw UsageError("merge needs --out DIR: the new run directory to write the merged run to");
  std::vector<std::filesystem::path> dirs;
  for (const auto& d : result["dirs"].as<std::vector<std::string>>()) {
    check_readable_run_path(d);
    dirs.emplace_back(d);
  }
  if (holds_frontier_run(dirs.front())) {
    return merge_frontier(dirs, result["out"].as<std::string>(), result.count("json") > 0);
  }
  MergeOptions merge_options;
  merge_options.read_tours = !result.count("skip-tour-check");
  merge_options.provenance = provenance();
  const auto report = merge_runs(dirs, result["out"].as<std::string>(), merge_options);
  if (result.count("json")) {
    nlohmann::json j{{"inputs", report.inputs},
                     {"prefixes", report.prefixes},
                     {"prefixes_done", report.prefixes_done},
                     {"missing", report.missing},
                     {"tours", report.tours},
                     {"closed_tours", report.closed},
                     {"nodes", report.nodes},
                     {"nodes_searched", report.nodes_searched},
                     {"cpu_seconds", report.cpu_seconds},
                     {"files", report.files},
                     {"status", report.complete() ? "complete" : "incomplete"},
                     {"lower_bound", !report.complete()},
                     {"notes", report.notes}};
    add_provenance(j);
    print_json_object(j);
  } else {
    const std::string ge = report.complete() ? "" : ">= ";
    std::printf("merged     %s into %s\n", how_many(report.inputs, "run").c_str(),
                result["out"].as<std::string>().c_str());
    std::printf("prefixes   %s of %s\n", with_commas(report.prefixes_done).c_str(),
                with_commas(report.prefixes).c_str());
    std::printf("tours      %s%s\n", ge.c_str(), with_commas(report.tours).c_str());
    std::printf("closed     %s%s\n", ge.c_str(), with_commas(report.closed).c_str());
    std::printf(
        "cost       %s nodes searched, %.1f CPU-seconds, over every session of every input\n",
        with_commas(report.nodes_searched).c_str(), report.cpu_seconds);
    if (!report.complete()) {
      std::string ids;
      for (std::size_t i = 0; i < report.missing.size() && i < 10; ++i)
        ids += (i ? ", " : "") + std::to_string(report.missing[i]);
      if (report.missing.size() > 10) ids += ", ...";
      std::printf(
          "status     INCOMPLETE: %zu prefixes are missing (ids %s); counts are lower bounds\n",
          report.missing.size(), ids.c_str());
    } else {
      std::printf("status     complete\n");
    }
    for (const auto& n : report.notes) std::printf("note: %s\n", n.c_str());
  }
  return report.complete() ? kExitOk : kExitStopped;
}

}  // namespace knightstour::cli
