#include "cli_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/count/run_count.hpp"
#include "knightstour/frontier/wide_count.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "provenance.hpp"

namespace knightstour::cli {

namespace {

std::uint64_t parse_positive(const std::string& option, const std::string& text) {
  const auto value = parse_count(option, text);
  if (value == 0) throw UsageError("--" + option + " must be at least 1");
  return value;
}

// The caps, the threads and the shard, as search_options_from takes them.
Caps caps_from(const cxxopts::ParseResult& result) {
  Caps caps;
  if (result.count("max-nodes")) {
    caps.max_nodes = parse_positive("max-nodes", result["max-nodes"].as<std::string>());
  }
  if (result.count("max-tours")) {
    caps.max_tours = parse_positive("max-tours", result["max-tours"].as<std::string>());
  }
  if (result.count("time-limit")) {
    caps.time_limit = parse_seconds("time-limit", result["time-limit"].as<std::string>());
    if (caps.time_limit <= 0) throw UsageError("--time-limit must be more than 0 seconds");
  }
  return caps;
}

int threads_from(const cxxopts::ParseResult& result) {
  return result.count("threads")
             ? parse_int("threads", result["threads"].as<std::string>(), 1, 4096)
             : 0;
}

Shard shard_from(const cxxopts::ParseResult& result) {
  Shard shard;
  shard.count = parse_int("shard-count", result["shard-count"].as<std::string>(), 1, 1 << 24);
  shard.index = parse_int("shard-index", result["shard-index"].as<std::string>(), 0, 1 << 24);
  check_shard(shard);
  return shard;
}

}  // namespace

void add_job_options(cxxopts::Options& options, bool with_caps) {
  options.add_options("Search")("start", "Start square: a1 style or zero-based r,c",
                                cxxopts::value<std::string>())(
      "all-starts", "Every square of the board as a start")(
      "prefix", "Only tours beginning with this path, e.g. a1,b3 (its first square is the start)",
      cxxopts::value<std::string>())(
      "closed", "Only closed tours (the last square is a knight move from the start)")(
      "algorithm", "pruned or naive (plain backtracking, for comparison)",
      cxxopts::value<std::string>()->default_value("pruned"))(
      "no-symmetry", "Search mirror-image prefixes instead of deriving their counts");
  options.add_options("Parallelism")(
      "threads",
      "Worker threads (default: SLURM_CPUS_PER_TASK, else every CPU this process may use)",
      cxxopts::value<std::string>())(
      "split-depth", "Moves in each work unit (prefix); default gives >= 64 per thread",
      cxxopts::value<std::string>())(
      "shard-index",
      "Run only this shard's share: of the prefixes (whole symmetry orbits, dealt in turn), or "
      "of a frontier count's units of end pairs (count --grid end-pairs)",
      cxxopts::value<std::string>()->default_value("0"))(
      "shard-count", "Number of shards", cxxopts::value<std::string>()->default_value("1"));
  if (with_caps) {
    options.add_options("Caps")("max-nodes", "Stop after about this many search nodes",
                                cxxopts::value<std::string>())(
        "max-tours", "Stop once this many tours were found", cxxopts::value<std::string>())(
        "time-limit", "Stop after this many seconds", cxxopts::value<std::string>());
  }
  options.add_options("Output")("progress", "Seconds between progress lines on stderr (0 = off)",
                                cxxopts::value<std::string>()->default_value("5"))(
      "json", "Print the result as one JSON object");
}

void add_count_options(cxxopts::Options& options) {
  options.add_options("Search")(
      "end",
      "With --start: only the open tours from the start that end on this square (the paths "
      "between the two; frontier: one sweep with both ends pinned)",
      cxxopts::value<std::string>())(
      "total-only",
      "With --all-starts: the total of the open tours only, not the tours from each square "
      "(frontier: one sweep instead of one per class of start squares)")(
      "every-length",
      "RxN: the boards R x n for every n from 1 to N, in one job (frontier; with --closed, "
      "or open tours with --all-starts --total-only): a table by length");
  options.add_options("Method")(
      "method",
      "auto (default): the faster method for the job (README: Which method counts); dfs: the "
      "enumerator, which visits every tour (up to 64 squares; estimate samples its search tree "
      "by random walks); frontier: counts classes of partial paths without visiting tours (any "
      "length, shorter side at most 9; estimate counts for --calibrate seconds and projects)",
      cxxopts::value<std::string>())(
      "memory",
      "frontier: bytes the classes may hold, e.g. 16G (default: half the memory available at "
      "the start)",
      cxxopts::value<std::string>())(
      "residue-unit",
      "frontier: count residue unit K of the job (0, 1, ...): modulo the K-th of the primes its "
      "count bound needs, the last one a spare; `merge` of every unit's --run-dir gives the "
      "exact count",
      cxxopts::value<std::string>());
}

std::string board_argument(const cxxopts::ParseResult& result) {
  if (!result.count("board")) throw UsageError("missing BOARD, e.g. 6x6 or 5");
  return result["board"].as<std::string>();
}

std::optional<RunManifest> manifest_to_resume(const cxxopts::ParseResult& result,
                                              const std::string& dir_option) {
  if (!result.count("resume")) return std::nullopt;
  if (!result.count(dir_option)) throw UsageError("--resume needs --" + dir_option + " DIR");
  const auto dir = result[dir_option].as<std::string>();
  check_readable_run_path(dir);
  if (!std::filesystem::exists(run_layout::manifest_path(dir))) {
    throw UsageError(dir + " holds no run to resume (no " + run_layout::kManifest + ")");
  }
  RunManifest m = read_manifest(dir);
  if (m.method != Method::dfs) {
    throw UsageError(dir + " holds a count by the " + to_string(m.method) +
                     " method, not a run of the enumerator; resume it with knightstour count "
                     "--run-dir " +
                     dir + " --resume");
  }
  return m;
}

JobRequest job_request(Command command, const JobOptions& parsed,
                       const cxxopts::ParseResult& result, const std::string& dir_option) {
  JobRequest job;
  job.command = command;
  job.request = parsed.request;
  job.threads = parsed.threads;
  job.caps = parsed.caps;
  job.progress_seconds = parsed.progress_seconds;
  job.resume = result.count("resume") > 0;
  if (result.count(dir_option)) job.dir = result[dir_option].as<std::string>();
  job.provenance = provenance();
  return job;
}

JobOptions job_options_from(const cxxopts::ParseResult& result, const RunManifest* resumed) {
  const CountRequest asked = search_options_from(
      result,
      resumed ? std::optional<BoardShape>(BoardShape{resumed->rows, resumed->cols}) : std::nullopt);
  JobOptions out;
  out.request = enumerator_request(asked, resumed);
  out.threads = asked.threads;
  out.caps = asked.caps;
  out.progress_seconds = asked.progress_seconds;
  out.json = result.count("json") > 0;
  return out;
}

CountRequest search_options_from(const cxxopts::ParseResult& result,
                                 std::optional<BoardShape> resumed_board) {
  CountRequest r;
  // Only a resume may leave out the board (the run directory has it).
  if (result.count("board") || !result.count("resume")) {
    r.shape = parse_board_shape(board_argument(result));
  }
  const std::optional<BoardShape> board = r.shape ? r.shape : resumed_board;
  const bool has_start = result.count("start") > 0;
  const bool has_prefix = result.count("prefix") > 0;
  if (result.count("all-starts")) {
    if (has_start || has_prefix) {
      throw UsageError("--all-starts cannot be combined with --start or --prefix");
    }
    r.all_starts = true;
  }
  if ((has_start || has_prefix) && !board) {
    throw UsageError("--start and --prefix need the BOARD (e.g. knightstour count 6x6 --start a1)");
  }
  if (has_prefix) {
    const Board b(*board);  // a prefix is the enumerator's: at most 64 squares
    for (int s : parse_square_list(b, result["prefix"].as<std::string>(), "prefix")) {
      r.prefix.push_back(s);
    }
  }
  if (has_start) {
    const RowCol rc = parse_row_col(*board, result["start"].as<std::string>(), "start square");
    const std::int64_t start = std::int64_t{rc.row} * board->cols + rc.col;
    if (has_prefix && r.prefix.front() != start) {
      throw UsageError("--prefix must begin with the --start square");
    }
    if (!has_prefix) r.prefix = {start};
  }
  if (result.count("closed")) r.closed = true;
  if (result.count("algorithm")) {
    r.algorithm = parse_algorithm(result["algorithm"].as<std::string>());
  }
  r.no_symmetry = result.count("no-symmetry") > 0;
  if (result.count("split-depth")) {
    // Bounded by the board when it is known here (else by the run's, in dfs_request).
    const int most = board ? board->squares() - 1 : 1 << 20;
    r.split_depth = parse_int("split-depth", result["split-depth"].as<std::string>(), 0, most);
  }
  if (result.count("shard-count") || result.count("shard-index")) r.shard = shard_from(result);
  r.threads = threads_from(result);
  r.caps = caps_from(result);
  r.progress_seconds = parse_seconds("progress", result["progress"].as<std::string>());
  return r;
}

void require_shard_index(const cxxopts::ParseResult& result) {
  if (result.count("shard-count") && !result.count("shard-index")) {
    throw UsageError(
        "--shard-count goes with --shard-index (which shard this run counts, 0 to N-1): a run "
        "of one shard is not the whole count");
  }
}

CountRequest count_request_from(const cxxopts::ParseResult& result) {
  CountRequest r = search_options_from(result, std::nullopt);
  const bool has_start = result.count("start") > 0;
  const bool has_prefix = result.count("prefix") > 0;
  if (result.count("end")) {
    if (!has_start || has_prefix || !r.shape) {
      throw UsageError("--end goes with --start (the tours from one square ending on another)");
    }
    const RowCol rc = parse_row_col(*r.shape, result["end"].as<std::string>(), "end square");
    r.end = std::int64_t{rc.row} * r.shape->cols + rc.col;
  }
  r.up_to_symmetry = result.count("up-to-symmetry") > 0;
  if (result.count("method")) r.method = parse_method(result["method"].as<std::string>());
  if (result.count("run-dir")) r.run_dir = result["run-dir"].as<std::string>();
  r.resume = result.count("resume") > 0;
  if (r.resume && !r.run_dir) throw UsageError("--resume needs --run-dir DIR");
  r.provenance = provenance();
  if (result.count("memory"))
    r.memory_budget = parse_size("memory", result["memory"].as<std::string>());
  if (result.count("spill-dir")) {
    r.spill_dir = result["spill-dir"].as<std::string>();
    if (r.spill_dir->empty()) {
      throw UsageError("--spill-dir needs a folder (or none, to spill nowhere), not ''");
    }
  }
  if (result.count("checkpoint")) {
    r.checkpoint_seconds = parse_seconds("checkpoint", result["checkpoint"].as<std::string>());
  }
  if (result.count("grid")) r.grid = parse_grid_method(result["grid"].as<std::string>());
  if (result.count("modulus")) {
    const std::string text = result["modulus"].as<std::string>();
    r.modulus = parse_count("modulus", text);
    if (!is_modulus(*r.modulus)) {
      throw UsageError(
          "--modulus expects an odd prime below 2^62 (e.g. 4611686018427387847), not " + text);
    }
  }
  if (result.count("residue-unit")) {
    r.residue_unit = parse_int("residue-unit", result["residue-unit"].as<std::string>(), 0, 1000);
  }
  if (result.count("every-length")) {
    r.every_length = true;
    if (has_start || has_prefix) {
      throw UsageError("--every-length counts every start of every length; leave out --start");
    }
    // What the row is of, said by the flags that pick it (a resume takes it from its run).
    if (!result.count("resume") && !result.count("closed") && !result.count("total-only")) {
      throw UsageError(
          "--every-length needs what to count: --closed (closed tours of every length), or "
          "--all-starts --total-only (open tours of every length, over all starts)");
    }
    r.all_starts = true;
  }
  if (result.count("no-mirror-fold")) {
    r.mirror_fold = false;
    if (r.run_dir) {
      throw UsageError(
          "--no-mirror-fold is a check run: it keeps no run directory; leave out --run-dir");
    }
  }
  if (result.count("total-only")) {
    r.total_only = true;
    if (has_start || has_prefix || (!r.all_starts && !r.resume)) {
      throw UsageError(
          "--total-only goes with --all-starts (a count from one start is one sweep "
          "already)");
    }
    if (r.closed) {
      throw UsageError(
          "--total-only counts open tours (closed tours over all starts are one "
          "sweep already)");
    }
  }
  return r;
}

}  // namespace knightstour::cli
