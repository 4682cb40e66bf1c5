#include "frontier_count.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli_options.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier/frontier_run_dir.hpp"
#include "knightstour/io/temp_directory.hpp"
#include "output.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

// Options of count that describe a search of prefixes, which the frontier method has not.
constexpr const char* kSearchOnly[] = {"prefix",    "split-depth", "shard-index", "shard-count",
                                       "max-nodes", "max-tours",   "no-symmetry", "algorithm"};

std::string gib(std::uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return b;
}

// JSON cannot hold integers past 64 bits in nlohmann's model, so exact counts go in as
// marked strings and are written back as bare integer literals after dumping.
constexpr const char* kExact = "#exact:";
nlohmann::json exact(const BigCount& n) { return std::string(kExact) + n.str(); }
std::string unmark(std::string text) {
  const std::string marker = std::string("\"") + kExact;
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at)) {
    const auto end = text.find('"', at + marker.size());
    const std::string digits = text.substr(at + marker.size(), end - at - marker.size());
    text.replace(at, end + 1 - at, digits);
    at += digits.size();
  }
  return text;
}

std::string what_is_counted(const FrontierRequest& r) {
  const std::string kind = r.closed ? "closed" : "open";
  if (!r.start) return "all starts, directed " + kind + " tours";
  const int row = static_cast<int>(*r.start / r.shape.cols);
  const int col = static_cast<int>(*r.start % r.shape.cols);
  return "start " + square_name(row, col) + ", directed " + kind + " tours";
}

// The run directory's line: where the run is kept, what came from it, how to go on.
std::string run_dir_line(const FrontierReport& report, const FrontierRunDir& run) {
  std::string line = run.dir().string();
  if (report.sweeps_resumed > 0) {
    line += " (" + std::to_string(report.sweeps_resumed) + " of " +
            std::to_string(report.sweeps_planned) + " sweeps taken up from it)";
  }
  if (!report.complete) {
    line += "; continue with: knightstour count --run-dir " + run.dir().string() + " --resume";
  }
  return line;
}

void print_text(const FrontierRequest& request, const FrontierReport& report, int threads,
                std::uint64_t memory, const FrontierRunDir* run) {
  const BoardShape& shape = request.shape;
  std::printf("board      %s, %s\n", shape.name().c_str(), what_is_counted(request).c_str());
  std::printf(
      "method     frontier (dynamic programming over classes of partial paths; no tour "
      "is visited)\n");
  if (run != nullptr) std::printf("run dir    %s\n", run_dir_line(report, *run).c_str());
  if (!report.complete) {
    std::printf("status     INCOMPLETE: %s with %d of %d sweeps finished; no count.\n",
                describe(report.stop_reason).c_str(), report.sweeps_finished,
                report.sweeps_planned);
    return;
  }
  if (!request.start) {
    std::vector<std::string> cells;
    for (const auto& v : report.tours_by_start) cells.push_back(v.with_commas());
    std::printf("\n%s tours from each start square:\n%s\n", request.closed ? "closed" : "open",
                board_grid(shape, cells).c_str());
  }
  std::printf("tours      %s  (a tour and its reverse from the other end count separately)\n",
              report.tours.with_commas().c_str());
  const std::string each = request.start ? "twice (both directions)"
                                         : "2 x " + std::to_string(shape.squares()) +
                                               " times (every start, both directions)";
  if (request.closed) {
    std::printf("cycles     %s closed cycles: each is counted %s in the tours above\n",
                report.cycles.with_commas().c_str(), each.c_str());
  } else {
    std::printf(
        "closed     %s of them are closed (end a knight move from the start): %s closed "
        "cycles, each counted %s\n",
        report.closed_tours.with_commas().c_str(), report.cycles.with_commas().c_str(),
        each.c_str());
  }
  std::printf(
      "classes    %s at the peak (sweep %d squares wide), %s expanded in all; %d-bit "
      "counts\n",
      BigCount(report.peak_classes).with_commas().c_str(), report.width,
      BigCount(report.expanded).with_commas().c_str(), 64 * report.limbs);
  std::printf("memory     %s of classes at the peak (budget %s)\n", gib(report.peak_bytes).c_str(),
              gib(memory).c_str());
  if (report.spilled_bytes > 0) {
    std::printf("disk       %s of classes spilled; up to %d passes a step\n",
                gib(report.spilled_bytes).c_str(), report.max_passes);
  }
  std::printf("threads    %d; %d sweep%s\n", threads, report.sweeps, report.sweeps == 1 ? "" : "s");
  std::printf("time       %.3f s\n", report.seconds);
  std::printf("status     complete\n");
}

void print_json(const FrontierRequest& request, const FrontierReport& report, int threads,
                std::uint64_t memory, const FrontierRunDir* run) {
  const BoardShape& shape = request.shape;
  nlohmann::json j;
  j["command"] = "count";
  j["method"] = "frontier";
  j["board"] = shape.name();
  j["rows"] = shape.rows;
  j["cols"] = shape.cols;
  j["all_starts"] = !request.start.has_value();
  if (request.start) {
    j["start"] = square_name(static_cast<int>(*request.start / shape.cols),
                             static_cast<int>(*request.start % shape.cols));
  }
  j["closed_only"] = request.closed;
  j["status"] = report.complete ? "complete" : "incomplete";
  j["lower_bound"] = false;  // a stopped frontier run has no partial count at all
  j["stop_reason"] =
      report.complete ? nlohmann::json(nullptr) : nlohmann::json(token(report.stop_reason));
  add_provenance(j);
  j["stop_reason_text"] =
      report.complete ? nlohmann::json(nullptr) : nlohmann::json(describe(report.stop_reason));
  auto count = [&](const BigCount& n) {
    return report.complete ? exact(n) : nlohmann::json(nullptr);
  };
  j["tours"] = count(report.tours);
  j["closed_tours"] = count(report.closed_tours);
  j["closed_cycles"] = count(report.cycles);
  if (!request.start && report.complete) {
    auto grid = [&](const std::vector<BigCount>& v) {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& x : v) a.push_back(exact(x));
      return a;
    };
    j["tours_by_start"] = grid(report.tours_by_start);
    j["closed_by_start"] = grid(report.closed_by_start);
  }
  j["sweeps"] = report.sweeps;
  j["sweeps_resumed"] = report.sweeps_resumed;
  j["run_dir"] = run != nullptr ? nlohmann::json(run->dir().string()) : nlohmann::json(nullptr);
  j["sweep_width"] = report.width;
  j["peak_classes"] = report.peak_classes;
  j["classes_expanded"] = report.expanded;
  j["peak_class_bytes"] = report.peak_bytes;
  j["spilled_bytes"] = report.spilled_bytes;
  j["max_passes"] = report.max_passes;
  j["memory_budget"] = memory;
  j["count_bits"] = 64 * report.limbs;
  j["threads"] = threads;
  j["seconds"] = report.seconds;
  std::cout << unmark(j.dump()) << '\n';
}

// What the command line asks; with --resume and no board, nothing (the run supplies it).
FrontierRequest parse_request(const cxxopts::ParseResult& result) {
  FrontierRequest request;
  if (result.count("resume") && !result.count("board")) return request;
  request.shape = parse_board_shape(board_argument(result));
  request.closed = result.count("closed") > 0;
  const bool all = result.count("all-starts") > 0;
  const bool has_start = result.count("start") > 0;
  if (all && has_start) throw UsageError("--all-starts cannot be combined with --start");
  if (!all && !has_start) {
    throw UsageError("give a start square with --start (e.g. --start a1), or --all-starts");
  }
  if (has_start) {
    const RowCol rc =
        parse_row_col(request.shape, result["start"].as<std::string>(), "start square");
    request.start = std::int64_t{rc.row} * request.shape.cols + rc.col;
  }
  return request;
}

bool same_job(const FrontierRequest& a, const FrontierRequest& b) {
  return a.shape.rows == b.shape.rows && a.shape.cols == b.shape.cols && a.closed == b.closed &&
         a.start == b.start;
}

}  // namespace

int frontier_count(const cxxopts::ParseResult& result) {
  for (const char* name : kSearchOnly) {
    if (result.count(name)) {
      throw UsageError(std::string("--") + name +
                       " has no meaning for --method frontier (it counts classes of partial "
                       "paths, not prefixes; use --method dfs)");
    }
  }
  const FrontierRequest asked = parse_request(result);
  std::optional<FrontierRunDir> run;
  const double checkpoint_every =
      parse_seconds("checkpoint-every", result["checkpoint-every"].as<std::string>());
  if (result["checkpoint-every"].count() && !result.count("run-dir")) {
    throw UsageError("--checkpoint-every needs --run-dir DIR (where the checkpoints go)");
  }
  if (result.count("resume")) {
    if (!result.count("run-dir")) throw UsageError("--resume needs --run-dir DIR");
    run.emplace(FrontierRunDir::open(result["run-dir"].as<std::string>(), checkpoint_every));
    if (result.count("board") && !same_job(asked, run->request())) {
      throw UsageError("the command line asks for another count than the run in " +
                       run->dir().string() + " (leave out the board to resume it as it is)");
    }
  } else if (result.count("run-dir")) {
    run.emplace(
        FrontierRunDir::create(result["run-dir"].as<std::string>(), asked, checkpoint_every));
  }
  const FrontierRequest request = run ? run->request() : asked;
  const Sweep validate(request.shape);  // a board too wide is a UsageError before any work
  (void)validate;

  FrontierOptions options;
  options.threads = result.count("threads")
                        ? parse_int("threads", result["threads"].as<std::string>(), 1, 4096)
                        : default_threads();
  // The budget counts class bytes; the process's resident memory ran to about 1.5 times that
  // on 8x8 (allocator slack, staging), so by default half of what is available.
  const std::uint64_t free_now = available_memory();
  options.memory_limit = result.count("memory")
                             ? parse_size("memory", result["memory"].as<std::string>())
                             : (free_now ? free_now / 2 : 4ull << 30);
  options.progress_seconds = parse_seconds("progress", result["progress"].as<std::string>());
  Caps caps;
  if (result.count("time-limit")) {
    caps.time_limit = parse_seconds("time-limit", result["time-limit"].as<std::string>());
    if (caps.time_limit <= 0) throw UsageError("--time-limit must be more than 0 seconds");
  }
  // Spilled classes go beside the run when there is one (the user chose a disk for it).
  std::string spill_dir =
      result.count("spill-dir") ? result["spill-dir"].as<std::string>() : std::string();
  if (spill_dir.empty() && run) spill_dir = run->dir().string();
  std::optional<TempDirectory> spill;
  if (spill_dir != "none") {
    spill.emplace(spill_dir.empty() ? std::filesystem::path() : std::filesystem::path(spill_dir),
                  "knightstour-spill-");
    options.spill_dir = spill->path();
  }
  install_stop_signal_handlers();
  StopControl stop(caps);
  const FrontierReport report = count_by_frontier(request, options, stop, run ? &*run : nullptr);
  if (result.count("json")) {
    print_json(request, report, options.threads, options.memory_limit, run ? &*run : nullptr);
  } else {
    print_text(request, report, options.threads, options.memory_limit, run ? &*run : nullptr);
  }
  return report.complete ? kExitOk : kExitStopped;
}

}  // namespace knightstour::cli
