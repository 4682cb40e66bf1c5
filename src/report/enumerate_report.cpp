#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "knightstour/board/square.hpp"
#include "knightstour/report/reports.hpp"
#include "knightstour/report/words.hpp"
#include "report_text.hpp"

namespace knightstour {

namespace {

using report_text::put;

// Closed cycles behind a closed count, when the count covers whole cycles: every cycle
// through a fixed start appears twice (two directions), and over all starts 2 * squares
// times. With a longer prefix, a shard or a stopped run it is not a whole number of cycles.
std::optional<std::uint64_t> cycles(const Request& request, const RunReport& report) {
  if (!report.complete() || request.shard.count != 1) return std::nullopt;
  if (request.all_starts)
    return report.closed / (2 * static_cast<std::uint64_t>(request.board.squares()));
  if (request.prefix.size() == 1) return report.closed / 2;
  return std::nullopt;
}

std::string what_is_counted(const Request& job) {
  return knightstour::what_is_counted(
      job.board.shape(), job.all_starts,
      std::vector<std::int64_t>(job.prefix.begin(), job.prefix.end()), job.mode.closed);
}

std::string each_cycle_counted(const Request& job) {
  return job.all_starts ? "2 x " + std::to_string(job.board.squares()) +
                              " times (every start, both directions)"
                        : std::string("twice (both directions)");
}

// "npy", "text, zstd": how a run's tour files are written.
std::string format_label(TourFormat format, Compression compression) {
  return to_string(format) + (compression == Compression::zstd ? ", zstd" : "");
}

std::string megabytes(std::uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return b;
}

// The parts of a summary put_text and json_of read.
struct View {
  const Request& job;
  const RunReport& totals;
  const std::string& run_dir;
  const EnumerateSummary* files;
};

void put_text(std::string& t, const View& s) {
  const Request& job = s.job;
  const Board& board = job.board;
  const std::string ge = s.totals.complete() ? "" : ">= ";
  put(t, "board      %s, %s\n", board.name().c_str(), what_is_counted(job).c_str());
  if (!s.totals.complete()) {
    put(t, "status     INCOMPLETE: %s; %zu of %zu prefixes finished.\n",
        describe(s.totals.stop_reason).c_str(), s.totals.prefixes_done, s.totals.shard_prefixes);
    put(t, "           Every count below is a LOWER BOUND (>=), from finished prefixes only.\n");
    if (!s.run_dir.empty()) {
      put(t, "           Resume with the same command plus $resume.\n");
    }
    if (s.totals.stop_reason == StopReason::tour_cap) {
      put(t,
          "found      %s tours this session before the cap stopped it (mirror images "
          "included); the counts below hold only those of finished prefixes\n",
          with_commas(s.totals.tours_found).c_str());
    }
  }
  put(t,
      "tours      %s%s directed tours (a tour and its reverse from the other end count "
      "separately)\n",
      ge.c_str(), with_commas(s.totals.tours).c_str());
  const auto cyc = cycles(job, s.totals);
  if (job.mode.closed) {
    if (cyc) {
      put(t, "cycles     %s closed cycles: each is counted %s in the tours above\n",
          with_commas(*cyc).c_str(), each_cycle_counted(job).c_str());
    }
  } else {
    std::string line = ge + with_commas(s.totals.closed) +
                       " of them are closed (end a knight move from the start)";
    if (cyc)
      line += ": " + with_commas(*cyc) + " closed cycles, each counted " + each_cycle_counted(job);
    put(t, "closed     %s\n", line.c_str());
  }
  const TourFileStats& f = s.files->files;
  put(t, "files      %s: %s tours written this session to %s file%s (%s, %s)\n", s.run_dir.c_str(),
      with_commas(f.tours).c_str(), with_commas(f.files).c_str(), f.files == 1 ? "" : "s",
      megabytes(f.bytes).c_str(), format_label(s.files->format, s.files->compression).c_str());
  put(t, "nodes      %s searched\n", with_commas(s.totals.nodes).c_str());
  put(t, "threads    %d; %zu prefixes at split depth %d", s.totals.threads, s.totals.shard_prefixes,
      s.totals.split_depth);
  if (job.shard.count > 1) {
    put(t, " (shard %d of %d; the plan has %zu)", job.shard.index, job.shard.count,
        s.totals.plan_prefixes);
  }
  put(t, ", %zu searched", s.totals.searches);
  if (s.totals.prefixes_before > 0)
    put(t, ", %zu done by earlier sessions", s.totals.prefixes_before);
  if (job.symmetry && job.mode.algorithm == Algorithm::pruned &&
      s.totals.searches + s.totals.prefixes_before < s.totals.shard_prefixes) {
    put(t, ", the rest derived by symmetry");
  }
  put(t, "\n");
  const double secs = std::max(s.totals.seconds, 1e-9);
  put(t, "time       %.3f s (%s nodes/s", s.totals.seconds,
      with_commas(static_cast<std::uint64_t>(static_cast<double>(s.totals.nodes) / secs)).c_str());
  put(t, ", %s tours/s, %.0f MB/s written",
      with_commas(static_cast<std::uint64_t>(static_cast<double>(f.tours) / secs)).c_str(),
      static_cast<double>(f.bytes) / 1e6 / secs);
  put(t, ", %.1f CPU-seconds)\n", s.totals.cpu_seconds);
  if (s.totals.complete()) put(t, "status     complete\n");
}

std::string json_of(const View& s) {
  const Request& job = s.job;
  const Board& board = job.board;
  nlohmann::json j;
  j["command"] = "enumerate";
  j["board"] = board.name();
  j["rows"] = board.rows();
  j["cols"] = board.cols();
  j["all_starts"] = job.all_starts;
  if (!job.all_starts) {
    j["start"] = square_name(board, job.prefix.front());
    std::vector<std::string> names;
    for (auto sq : job.prefix) names.push_back(square_name(board, sq));
    j["prefix"] = names;
  }
  j["closed_only"] = job.mode.closed;
  j["algorithm"] = to_string(job.mode.algorithm);
  j["status"] = s.totals.complete() ? "complete" : "incomplete";
  j["lower_bound"] = !s.totals.complete();
  j["stop_reason"] =
      s.totals.complete() ? nlohmann::json(nullptr) : nlohmann::json(token(s.totals.stop_reason));
  j["stop_reason_text"] = s.totals.complete() ? nlohmann::json(nullptr)
                                              : nlohmann::json(describe(s.totals.stop_reason));
  j["tours"] = s.totals.tours;
  j["closed_tours"] = s.totals.closed;
  const auto cyc = cycles(job, s.totals);
  j["closed_cycles"] = cyc ? nlohmann::json(*cyc) : nlohmann::json(nullptr);
  j["nodes"] = s.totals.nodes;
  j["threads"] = s.totals.threads;
  j["split_depth"] = s.totals.split_depth;
  j["prefixes"] = s.totals.shard_prefixes;
  j["prefixes_done"] = s.totals.prefixes_done;
  j["prefixes_done_before"] = s.totals.prefixes_before;
  j["tours_found"] = s.totals.tours_found;
  j["prefixes_in_plan"] = s.totals.plan_prefixes;
  j["searches"] = s.totals.searches;
  j["shard"] = {{"index", job.shard.index}, {"count", job.shard.count}};
  j["seconds"] = s.totals.seconds;
  j["cpu_seconds"] = s.totals.cpu_seconds;
  j["run_dir"] = s.run_dir.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.run_dir);
  std::vector<std::string> squares;
  for (int sq = 0; sq < board.squares(); ++sq) squares.push_back(square_name(board, sq));
  j["squares"] = squares;
  j["format"] = to_string(s.files->format);
  j["compression"] = to_string(s.files->compression);
  j["files_written"] = s.files->files.files;
  j["tours_written"] = s.files->files.tours;
  j["bytes_written"] = s.files->files.bytes;
  return j.dump();
}

}  // namespace

Report report_of(const EnumerateSummary& summary) {
  const View s{summary.request, summary.report, summary.run_dir, &summary};
  Report out;
  out.json = json_of(s);
  std::string t;
  put_text(t, s);
  out.lines = report_text::lines_of(t);
  if (!s.totals.complete()) out.outcome = Report::Outcome::stopped;
  return out;
}

Report report_of(const SampleSummary& summary) {
  const Request& request = summary.request;
  const SampleOutcome& sample = summary.sample;
  const std::string& run_dir = summary.run_dir;
  const RunManifest& m = sample.manifest;
  Report out;
  {
    nlohmann::json j;
    j["command"] = "enumerate";
    j["board"] = request.board.name();
    j["sample"] = m.sample;
    j["whole_set"] = sample.whole_set;
    j["tours"] = m.tours;
    j["closed_tours"] = m.closed_tours;
    j["run_dir"] = run_dir;
    j["file"] = sample.file.string();
    j["bytes"] = sample.bytes;
    j["nodes"] = m.nodes;
    j["seconds"] = sample.seconds;
    j["cpu_seconds"] = sample.cpu_seconds;
    out.json = j.dump();
  }
  std::string t;
  put(t, "board      %s, %s\n", request.board.name().c_str(), what_is_counted(request).c_str());
  if (sample.whole_set) {
    put(t,
        "sample     all %s tours there are (fewer than the %s asked), in depth-first "
        "search order\n",
        with_commas(m.tours).c_str(), with_commas(m.sample).c_str());
  } else {
    put(t,
        "sample     the first %s tours in depth-first search order (the same for any "
        "threads or split depth)\n",
        with_commas(m.tours).c_str());
  }
  put(t, "closed     %s of them are closed (end a knight move from the start)\n",
      with_commas(m.closed_tours).c_str());
  put(t, "files      %s: 1 file (%s, %s)\n", run_dir.c_str(), megabytes(sample.bytes).c_str(),
      format_label(*m.tour_format, *m.compression).c_str());
  put(t, "nodes      %s searched\n", with_commas(m.nodes).c_str());
  put(t, "time       %.3f s on 1 thread (%.1f CPU-seconds)\n", sample.seconds, sample.cpu_seconds);
  out.lines = report_text::lines_of(t);
  return out;
}

}  // namespace knightstour
