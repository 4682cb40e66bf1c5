#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/count_engine.hpp"
#include "knightstour/square.hpp"
#include "output.hpp"

namespace knightstour::cli {

namespace {

std::vector<std::string> names(const Board& board, const std::vector<std::uint8_t>& path) {
  std::vector<std::string> out;
  for (auto s : path) out.push_back(square_name(board, s));
  return out;
}

// Closed cycles behind a closed count, when the count covers whole cycles: every cycle
// through a fixed start appears twice (two directions), and over all starts 2 * squares
// times. With a longer prefix or a shard the count is not a whole number of cycles.
std::optional<std::uint64_t> cycles(const JobSpec& job, const CountReport& r) {
  if (!r.complete() || job.shard.count != 1) return std::nullopt;
  if (job.all_starts) return r.closed / (2 * static_cast<std::uint64_t>(job.board.squares()));
  if (job.prefix.size() == 1) return r.closed / 2;
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

void print_text(const JobSpec& job, const CountReport& r) {
  const bool done = r.complete();
  const std::string ge = done ? "" : ">= ";
  const Board& board = job.board;
  std::printf("board      %s, %s\n", board.name().c_str(), what_is_counted(job).c_str());
  if (!done) {
    std::printf("status     INCOMPLETE: %s; %zu of %zu prefixes finished.\n",
                describe(r.stop_reason).c_str(), r.prefixes_done, r.shard_prefixes);
    std::printf(
        "           Every count below is a LOWER BOUND (>=), from finished prefixes only.\n");
  }
  if (job.all_starts) {
    std::printf("\n%s tours from each start square:\n%s\n", job.mode.closed ? "closed" : "open",
                board_grid(board, r.tours_by_start).c_str());
  }
  const std::string dir_note = "a tour and its reverse from the other end count separately";
  std::printf("tours      %s%s  (%s)\n", ge.c_str(), with_commas(r.tours).c_str(),
              dir_note.c_str());
  const auto cyc = cycles(job, r);
  if (job.mode.closed) {
    if (cyc) {
      std::printf("cycles     %s closed cycles: each is counted %s in the tours above\n",
                  with_commas(*cyc).c_str(),
                  job.all_starts ? ("2 x " + std::to_string(board.squares()) +
                                    " times (every start, both directions)")
                                       .c_str()
                                 : "twice (both directions)");
    }
  } else {
    std::string line =
        ge + with_commas(r.closed) + " of them are closed (end a knight move from the start)";
    if (cyc) {
      line += ": " + with_commas(*cyc) + " closed cycles, each counted " +
              (job.all_starts ? "2 x " + std::to_string(board.squares()) +
                                    " times (every start, both directions)"
                              : std::string("twice (both directions)"));
    }
    std::printf("closed     %s\n", line.c_str());
  }
  std::printf("nodes      %s searched\n", with_commas(r.nodes).c_str());
  std::printf("threads    %d; %zu prefixes at split depth %d", r.threads, r.shard_prefixes,
              r.split_depth);
  if (job.shard.count > 1) {
    std::printf(" (shard %d of %d; the plan has %zu)", job.shard.index, job.shard.count,
                r.plan_prefixes);
  }
  std::printf(", %zu searched", r.searches);
  if (job.symmetry && job.mode.algorithm == Algorithm::pruned) {
    std::printf(", the rest derived by symmetry");
  }
  std::printf("\n");
  std::printf("time       %.3f s (%s nodes/s)\n", r.seconds,
              with_commas(static_cast<std::uint64_t>(static_cast<double>(r.nodes) /
                                                     std::max(r.seconds, 1e-9)))
                  .c_str());
  if (done) std::printf("status     complete\n");
}

void print_json(const JobSpec& job, const CountReport& r) {
  const Board& board = job.board;
  nlohmann::json j;
  j["command"] = "count";
  j["board"] = board.name();
  j["rows"] = board.rows();
  j["cols"] = board.cols();
  j["all_starts"] = job.all_starts;
  if (!job.all_starts) {
    j["start"] = square_name(board, job.prefix.front());
    j["prefix"] = names(board, job.prefix);
  }
  j["closed_only"] = job.mode.closed;
  j["algorithm"] = to_string(job.mode.algorithm);
  j["status"] = r.complete() ? "complete" : "incomplete";
  j["lower_bound"] = !r.complete();
  j["stop_reason"] =
      r.complete() ? nlohmann::json(nullptr) : nlohmann::json(describe(r.stop_reason));
  j["tours"] = r.tours;
  j["closed_tours"] = r.closed;
  const auto cyc = cycles(job, r);
  j["closed_cycles"] = cyc ? nlohmann::json(*cyc) : nlohmann::json(nullptr);
  j["nodes"] = r.nodes;
  j["threads"] = r.threads;
  j["split_depth"] = r.split_depth;
  j["prefixes"] = r.shard_prefixes;
  j["prefixes_done"] = r.prefixes_done;
  j["prefixes_in_plan"] = r.plan_prefixes;
  j["searches"] = r.searches;
  j["shard"] = {{"index", job.shard.index}, {"count", job.shard.count}};
  j["seconds"] = r.seconds;
  j["squares"] = [&] {
    std::vector<std::string> all;
    for (int s = 0; s < board.squares(); ++s) all.push_back(square_name(board, s));
    return all;
  }();
  if (job.all_starts) {
    j["tours_by_start"] = r.tours_by_start;
    j["closed_by_start"] = r.closed_by_start;
  }
  j["tours_by_end"] = r.tours_by_end;
  std::cout << j.dump() << '\n';
}

}  // namespace

int count_command(int argc, char** argv) {
  cxxopts::Options options("knightstour count",
                           "Count every knight's tour from a start square (exactly, on all cores)");
  options.custom_help("BOARD (--start SQ | --prefix SQ,SQ,... | --all-starts) [options]");
  options.positional_help("");
  options.add_options()("board", "Board: RxC or a side", cxxopts::value<std::string>());
  add_job_options(options);
  add_common_options(options);
  options.parse_positional({"board"});
  cxxopts::ParseResult result;
  if (!parse(options, argc, argv, result)) return kExitOk;
  setup_logging(result);
  JobSpec job = job_from(result, true);
  const double progress = parse_seconds("progress", result["progress"].as<std::string>());
  resolve(job);

  install_stop_signal_handlers();
  StopControl stop(job.caps);
  CountOptions count_options;
  count_options.progress_seconds = progress;
  spdlog::debug("counting {} with {} threads at split depth {}", job.board.name(), job.threads,
                job.split_depth);
  const CountReport report = run_count(job, count_options, stop);
  if (result.count("json")) {
    print_json(job, report);
  } else {
    print_text(job, report);
  }
  return report.complete() ? kExitOk : kExitStopped;
}

}  // namespace knightstour::cli
