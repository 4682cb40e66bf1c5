#include <spdlog/spdlog.h>

#include <optional>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/exec/count_engine.hpp"
#include "knightstour/run/run_session.hpp"
#include "run_summary.hpp"

namespace knightstour::cli {

namespace {

PrefixCounts counts_of(const JournalRecord& r) {
  return {r.tours, r.closed, r.nodes, r.seconds, r.by_end};
}

}  // namespace

int count_command(int argc, char** argv) {
  auto options = command_options(
      "count", "Count every knight's tour from a start square (exactly, on all cores)",
      "BOARD (--start SQ | --prefix SQ,SQ,... | --all-starts) [options]", "board",
      "Board: RxC or a side");
  add_job_options(options);
  options.add_options("Run directory")(
      "run-dir", "Journal each finished prefix to DIR (manifest.json, journal-<shard>.tsv)",
      cxxopts::value<std::string>())("resume", "Continue the run in --run-dir where it stopped");
  cxxopts::ParseResult result;
  if (!parse_command(options, "board", argc, argv, result)) return kExitOk;
  JobSpec job = job_from(result, true);
  const double progress = parse_seconds("progress", result["progress"].as<std::string>());
  const bool resume = result.count("resume") > 0;
  if (resume && !result.count("run-dir")) throw UsageError("--resume needs --run-dir DIR");

  install_stop_signal_handlers();
  std::optional<RunSession> session;
  std::unique_ptr<JournalWriter> journal;
  CountOptions count_options;
  count_options.progress_seconds = progress;
  RunSummary summary;
  if (result.count("run-dir")) {
    RunRequest request;
    request.dir = result["run-dir"].as<std::string>();
    request.resume = resume;
    request.command = "count";
    request.job = job;
    session.emplace(std::move(request));
    job = session->job();
    for (const auto& note : session->recovery().cleaned) spdlog::info("resume: {}", note);
    const auto done = session->done_by_id();
    count_options.done_before.resize(done.size());
    for (std::size_t id = 0; id < done.size(); ++id) {
      if (done[id]) {
        count_options.done_before[id] = counts_of(*done[id]);
        ++summary.prefixes_before;
      }
    }
    journal = std::make_unique<JournalWriter>(session->directory().journal_path(job.shard.index),
                                              JournalKind::count, job.board.squares());
    count_options.on_prefix_done = [&](std::size_t id, std::span<const std::uint8_t> prefix,
                                       const PrefixCounts& c) {
      JournalRecord r{id,      path_name(job.board, prefix.data(), static_cast<int>(prefix.size())),
                      c.tours, c.closed,
                      c.nodes, c.seconds,
                      "",      c.by_end};
      journal->append({r});
    };
    summary.run_dir = session->directory().dir().string();
  } else {
    resolve(job);
  }
  StopControl stop(job.caps);
  spdlog::debug("counting {} with {} threads at split depth {}", job.board.name(), job.threads,
                job.split_depth);
  const CountReport report = run_count(job, count_options, stop);
  if (journal) journal->sync();
  if (session) {
    session->finish(report);
  }
  summary.command = "count";
  summary.job = job;
  summary.totals = report;
  summary.count = &report;
  return print_summary(summary, result.count("json") > 0);
}

}  // namespace knightstour::cli
