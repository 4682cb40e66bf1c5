#include <optional>
#include <string_view>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/report/reports.hpp"
#include "knightstour/run/job_runner.hpp"
#include "knightstour/run/sample_run.hpp"
#include "provenance.hpp"
#include "report_printer.hpp"

namespace knightstour::cli {
namespace {

// enumerate --sample N: the first N tours, searched in one fixed order.
int sample_command(const cxxopts::ParseResult& result, const std::string& out_dir) {
  for (const char* meaningless :
       {"resume", "split-depth", "shard-count", "shard-index", "max-nodes", "max-tours",
        "no-symmetry", "threads", "part-size", "checkpoint"}) {
    if (result.count(meaningless)) {
      throw UsageError(std::string("--") + meaningless +
                       " means nothing for --sample (one thread searches in one order, and "
                       "the sample is written whole)");
    }
  }
  const JobOptions parsed = job_options_from(result, nullptr);
  SampleRequest sample;
  sample.request = parsed.request;
  sample.tours = parse_count("sample", result["sample"].as<std::string>());
  sample.dir = out_dir;
  if (result.count("format")) sample.format = parse_tour_format(result["format"].as<std::string>());
  if (result.count("compress"))
    sample.compression = parse_compression(result["compress"].as<std::string>());
  sample.provenance = provenance();
  install_stop_signal_handlers();
  StopControl stop(parsed.caps);
  const SampleOutcome outcome = write_sample(sample, stop);
  return print_report(report_of(SampleSummary{parsed.request, outcome, out_dir}), parsed.json);
}

}  // namespace

int enumerate_command(int argc, char** argv) {
  auto options = command_options(
      "enumerate", "Write every knight's tour from a start square to tour files in a run directory",
      "BOARD (--start SQ | --prefix SQ,... | --all-starts) --out DIR [options]", "board",
      "Board: RxC or a side");
  add_job_options(options);
  options.add_options("Files")("out", "Run directory for the tour files, journal and manifest",
                               cxxopts::value<std::string>())(
      "format", "npy (default), text or board", cxxopts::value<std::string>())(
      "compress", "zstd (or none, the default)", cxxopts::value<std::string>())(
      "part-size", "Start a new file after this many bytes, at a prefix boundary",
      cxxopts::value<std::string>()->default_value("1G"))(
      "checkpoint", "Also finish each thread's file after this many seconds",
      cxxopts::value<std::string>()->default_value("60"))(
      "resume", "Continue the run in --out where it stopped (a finished run: print its counts)");
  options.add_options("Sample")(
      "sample",
      "Write exactly the first N tours in depth-first search order, the same N on any "
      "machine (one thread, no prefixes; --time-limit allowed)",
      cxxopts::value<std::string>());
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  // Without --out, or with one that is no directory, run_job() and write_sample() refuse.
  const std::string out_dir = result.count("out") ? result["out"].as<std::string>() : "";
  if (result.count("sample")) return sample_command(result, out_dir);
  require_shard_index(result);
  const auto resumed = manifest_to_resume(result, "out");
  const JobOptions parsed = job_options_from(result, resumed ? &*resumed : nullptr);
  JobRequest job = job_request(Command::enumerate, parsed, result, "out");
  if (result.count("format")) job.format = parse_tour_format(result["format"].as<std::string>());
  if (result.count("compress"))
    job.compression = parse_compression(result["compress"].as<std::string>());
  job.files.part_size = parse_size("part-size", result["part-size"].as<std::string>());
  job.files.checkpoint_seconds =
      parse_seconds("checkpoint", result["checkpoint"].as<std::string>());

  install_stop_signal_handlers();
  const JobOutcome outcome = run_job(job);
  return print_report(
      report_of(EnumerateSummary{outcome.request, outcome.report, outcome.dir.string(),
                                 *outcome.files, outcome.format, outcome.compression}),
      parsed.json);
}

}  // namespace knightstour::cli
