#include <spdlog/spdlog.h>

#include <cctype>
#include <optional>
#include <string_view>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/exec/enumerate_engine.hpp"
#include "knightstour/run/run_session.hpp"
#include "run_summary.hpp"

namespace knightstour::cli {

namespace {

// "512M", "2G", "100000" (bytes).
std::uint64_t parse_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  std::uint64_t unit = 1;
  constexpr std::string_view kSuffixes = "KMGT";
  if (!digits.empty()) {
    const auto suffix = kSuffixes.find(static_cast<char>(std::toupper(digits.back())));
    if (suffix != std::string_view::npos) {
      unit = 1ull << (10 * (suffix + 1));
      digits.pop_back();
    }
  }
  const auto value = parse_count(option, digits);
  if (value == 0) throw UsageError("--" + option + " must be at least 1 byte");
  if (value > UINT64_MAX / unit) throw UsageError("--" + option + " is too large");
  return value * unit;
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
      "part-size", "Start a new file after this many bytes, at a prefix boundary (default 1G)",
      cxxopts::value<std::string>()->default_value("1G"))(
      "checkpoint", "Also finish each thread's file after this many seconds (default 60)",
      cxxopts::value<std::string>()->default_value("60"))(
      "resume", "Continue the run in --out where it stopped");
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  JobSpec job = job_from(result, true);
  const double progress = parse_seconds("progress", result["progress"].as<std::string>());
  if (!result.count("out")) throw UsageError("enumerate needs --out DIR");
  RunRequest request;
  request.dir = result["out"].as<std::string>();
  request.resume = result.count("resume") > 0;
  request.command = "enumerate";
  request.job = job;
  if (result.count("format"))
    request.format = parse_tour_format(result["format"].as<std::string>());
  if (result.count("compress"))
    request.compression = parse_compression(result["compress"].as<std::string>());
  request.part_size = parse_size("part-size", result["part-size"].as<std::string>());
  request.checkpoint_seconds = parse_seconds("checkpoint", result["checkpoint"].as<std::string>());
  if (request.checkpoint_seconds <= 0) throw UsageError("--checkpoint must be more than 0 seconds");

  install_stop_signal_handlers();
  RunSession session(std::move(request));
  job = session.job();
  for (const auto& note : session.recovery().cleaned) spdlog::info("resume: {}", note);

  EnumerateOptions eo;
  eo.dir = session.directory().dir();
  eo.format = parse_tour_format(session.manifest().tour_format);
  eo.compression = parse_compression(session.manifest().compression);
  eo.part_size = session.manifest().part_size;
  eo.checkpoint_seconds = session.manifest().checkpoint_seconds;
  eo.first_part = session.recovery().next_part;
  eo.progress_seconds = progress;
  eo.done_before = session.done_by_id();
  std::size_t before = 0;
  for (const auto& r : eo.done_before) before += r ? 1 : 0;

  JournalWriter journal(session.directory().journal_path(job.shard.index), JournalKind::enumerate,
                        job.board.squares());
  StopControl stop(job.caps);
  const EnumerateReport report = run_enumerate(job, eo, journal, stop);
  session.finish(report);

  RunSummary s;
  s.command = "enumerate";
  s.job = job;
  s.totals = report;
  s.enumerate = &report;
  s.prefixes_before = before;
  s.run_dir = eo.dir.string();
  s.format = to_string(eo.format);
  s.compression = to_string(eo.compression);
  return print_summary(s, result.count("json") > 0);
}

}  // namespace knightstour::cli
