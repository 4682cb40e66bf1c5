#include "run_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "knightstour/square.hpp"
#include "output.hpp"

namespace knightstour::cli {

namespace {

// Closed cycles behind a closed count, when the count covers whole cycles: every cycle
// through a fixed start appears twice (two directions), and over all starts 2 * squares
// times. With a longer prefix, a shard or a stopped run it is not a whole number of cycles.
std::optional<std::uint64_t> cycles(const RunSummary& s) {
  if (!s.complete || s.job.shard.count != 1) return std::nullopt;
  if (s.job.all_starts) return s.closed / (2 * static_cast<std::uint64_t>(s.job.board.squares()));
  if (s.job.prefix.size() == 1) return s.closed / 2;
  return std::nullopt;
}

std::string what_is_counted(const JobSpec& job) {
  const std::string kind = job.mode.closed ? "closed" : "open";
  if (job.all_starts) return "all starts, directed " + kind + " tours";
  const std::string from = square_name(job.board, job.prefix.front());
  if (job.prefix.size() == 1) return "start " + from + ", directed " + kind + " tours";
  return "prefix " + path_name(job.board, job.prefix.data(), static_cast<int>(job.prefix.size())) +
         ", directed " + kind + " tours";
}

std::string each_cycle_counted(const JobSpec& job) {
  return job.all_starts ? "2 x " + std::to_string(job.board.squares()) +
                              " times (every start, both directions)"
                        : std::string("twice (both directions)");
}

std::string megabytes(std::uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return b;
}

}  // namespace

void print_summary_text(const RunSummary& s) {
  const JobSpec& job = s.job;
  const Board& board = job.board;
  const std::string ge = s.complete ? "" : ">= ";
  std::printf("board      %s, %s\n", board.name().c_str(), what_is_counted(job).c_str());
  if (!s.complete) {
    std::printf("status     INCOMPLETE: %s; %zu of %zu prefixes finished.\n",
                describe(s.stop_reason).c_str(), s.prefixes_done, s.prefixes);
    std::printf(
        "           Every count below is a LOWER BOUND (>=), from finished prefixes only.\n");
    if (!s.run_dir.empty()) {
      std::printf("           Resume with the same command plus --resume.\n");
    }
  }
  if (job.all_starts && !s.tours_by_start.empty()) {
    std::printf("\n%s tours from each start square:\n%s\n", job.mode.closed ? "closed" : "open",
                board_grid(board, s.tours_by_start).c_str());
  }
  std::printf("tours      %s%s  (a tour and its reverse from the other end count separately)\n",
              ge.c_str(), with_commas(s.tours).c_str());
  const auto cyc = cycles(s);
  if (job.mode.closed) {
    if (cyc) {
      std::printf("cycles     %s closed cycles: each is counted %s in the tours above\n",
                  with_commas(*cyc).c_str(), each_cycle_counted(job).c_str());
    }
  } else {
    std::string line =
        ge + with_commas(s.closed) + " of them are closed (end a knight move from the start)";
    if (cyc)
      line += ": " + with_commas(*cyc) + " closed cycles, each counted " + each_cycle_counted(job);
    std::printf("closed     %s\n", line.c_str());
  }
  if (s.command == "enumerate") {
    std::printf("files      %s: %s tours written this session to %s file%s (%s, %s%s)\n",
                s.run_dir.c_str(), with_commas(s.tours_written).c_str(),
                with_commas(s.files).c_str(), s.files == 1 ? "" : "s",
                megabytes(s.bytes_written).c_str(), s.format.c_str(),
                s.compression == "zstd" ? ", zstd" : "");
  } else if (!s.run_dir.empty()) {
    std::printf("run dir    %s\n", s.run_dir.c_str());
  }
  std::printf("nodes      %s searched\n", with_commas(s.nodes).c_str());
  std::printf("threads    %d; %zu prefixes at split depth %d", job.threads, s.prefixes,
              job.split_depth);
  if (job.shard.count > 1) {
    std::printf(" (shard %d of %d; the plan has %zu)", job.shard.index, job.shard.count,
                s.plan_prefixes);
  }
  std::printf(", %zu searched", s.searches);
  if (s.prefixes_before > 0) std::printf(", %zu done by earlier sessions", s.prefixes_before);
  if (job.symmetry && job.mode.algorithm == Algorithm::pruned &&
      s.searches + s.prefixes_before < s.prefixes) {
    std::printf(", the rest derived by symmetry");
  }
  std::printf("\n");
  const double secs = std::max(s.seconds, 1e-9);
  std::printf("time       %.3f s (%s nodes/s", s.seconds,
              with_commas(static_cast<std::uint64_t>(static_cast<double>(s.nodes) / secs)).c_str());
  if (s.command == "enumerate") {
    std::printf(", %s tours/s, %.0f MB/s written",
                with_commas(static_cast<std::uint64_t>(static_cast<double>(s.tours_written) / secs))
                    .c_str(),
                static_cast<double>(s.bytes_written) / 1e6 / secs);
  }
  std::printf(")\n");
  if (s.complete) std::printf("status     complete\n");
}

void print_summary_json(const RunSummary& s) {
  const JobSpec& job = s.job;
  const Board& board = job.board;
  nlohmann::json j;
  j["command"] = s.command;
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
  j["status"] = s.complete ? "complete" : "incomplete";
  j["lower_bound"] = !s.complete;
  j["stop_reason"] = s.complete ? nlohmann::json(nullptr) : nlohmann::json(describe(s.stop_reason));
  j["tours"] = s.tours;
  j["closed_tours"] = s.closed;
  const auto cyc = cycles(s);
  j["closed_cycles"] = cyc ? nlohmann::json(*cyc) : nlohmann::json(nullptr);
  j["nodes"] = s.nodes;
  j["threads"] = job.threads;
  j["split_depth"] = job.split_depth;
  j["prefixes"] = s.prefixes;
  j["prefixes_done"] = s.prefixes_done;
  j["prefixes_done_before"] = s.prefixes_before;
  j["prefixes_in_plan"] = s.plan_prefixes;
  j["searches"] = s.searches;
  j["shard"] = {{"index", job.shard.index}, {"count", job.shard.count}};
  j["seconds"] = s.seconds;
  j["run_dir"] = s.run_dir.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.run_dir);
  std::vector<std::string> squares;
  for (int sq = 0; sq < board.squares(); ++sq) squares.push_back(square_name(board, sq));
  j["squares"] = squares;
  if (s.command == "count") {
    if (job.all_starts) {
      j["tours_by_start"] = s.tours_by_start;
      j["closed_by_start"] = s.closed_by_start;
    }
    j["tours_by_end"] = s.tours_by_end;
  } else {
    j["format"] = s.format;
    j["compression"] = s.compression;
    j["files_written"] = s.files;
    j["tours_written"] = s.tours_written;
    j["bytes_written"] = s.bytes_written;
  }
  std::cout << j.dump() << '\n';
}

}  // namespace knightstour::cli
