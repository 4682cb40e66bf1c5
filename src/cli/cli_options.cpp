#include "cli_options.hpp"

#include <spdlog/cfg/env.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "flag_names.hpp"
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

void add_common_options(cxxopts::Options& options) {
  options.add_options("Output")(
      "log-level", "trace, debug, info, warn, error or off (default: info, or SPDLOG_LEVEL)",
      cxxopts::value<std::string>())("h,help", "Show this help");
}

// The library's log lines name options by their fields (flag_names.hpp): spelled as flags here.
class FlagSpeller final : public spdlog::formatter {
 public:
  explicit FlagSpeller(std::unique_ptr<spdlog::formatter> inner) : inner_(std::move(inner)) {}
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const std::string spelled = spell_flags({msg.payload.data(), msg.payload.size()});
    spdlog::details::log_msg copy = msg;
    copy.payload = spelled;
    inner_->format(copy, dest);
    // The colour sink reads where the level's colour goes from the message it formatted.
    msg.color_range_start = copy.color_range_start;
    msg.color_range_end = copy.color_range_end;
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<FlagSpeller>(inner_->clone());
  }

 private:
  std::unique_ptr<spdlog::formatter> inner_;
};

// spdlog to stderr; level from SPDLOG_LEVEL, overridden by --log-level.
void setup_logging(const cxxopts::ParseResult& result) {
  auto logger = spdlog::stderr_color_mt("knightstour");
  logger->set_formatter(std::make_unique<FlagSpeller>(
      std::make_unique<spdlog::pattern_formatter>("[%H:%M:%S] %^%l%$: %v")));
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::info);
  spdlog::cfg::load_env_levels();
  if (result.count("log-level")) {
    const auto text = result["log-level"].as<std::string>();
    const auto level = spdlog::level::from_str(text);
    if (level == spdlog::level::off && text != "off") {
      throw UsageError(
          "--log-level expects trace, debug, info, warn, error, critical or off, not '" + text +
          "'");
    }
    spdlog::set_level(level);
  }
}

// The option groups in the order a newcomer needs them (cxxopts sorts them by name).
std::string ordered_help(const cxxopts::Options& options) {
  static const std::vector<std::string> order = {
      "", "Search", "Method", "Files", "Sample", "Run directory", "Caps", "Parallelism", "Output"};
  const auto present = options.groups();
  auto has = [](const std::vector<std::string>& v, const std::string& g) {
    return std::find(v.begin(), v.end(), g) != v.end();
  };
  std::vector<std::string> groups;
  for (const auto& g : order) {
    if (has(present, g)) groups.push_back(g);
  }
  for (const auto& g : present) {
    if (!has(groups, g)) groups.push_back(g);
  }
  return options.help(groups);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// " (did you mean --start?)" for an option name a typo away from one the command has.
std::string suggestion(const cxxopts::Options& options, int argc, char** argv) {
  std::vector<std::string> known;
  for (const auto& g : options.groups()) {
    for (const auto& o : options.group_help(g).options) {
      for (const auto& name : o.l) known.push_back(name);
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) continue;
    const std::string name = arg.substr(2, arg.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    if (name == "svg" || name == "png") {
      // A picture is of one tour: find draws one, show one of a run's (a sample of one will do).
      return ": a count draws no picture. One tour, drawn: knightstour find BOARD --" + name +
             " FILE; one of the tours counted: knightstour enumerate BOARD --start SQ --sample 1 "
             "--out DIR, then knightstour show DIR --" +
             name + " FILE";
    }
    std::string best;
    std::size_t best_distance = 3;  // at most two edits away
    for (const auto& k : known) {
      const std::size_t d = edit_distance(name, k);
      if (d < best_distance || (name.size() >= 3 && k.rfind(name, 0) == 0 && best.empty())) {
        best = k;
        best_distance = std::min(d, best_distance);
      }
    }
    if (!best.empty()) return " (did you mean --" + best + "?)";
  }
  return "";
}

// An option given twice (the last would win, silently), and an option's value that is the
// next option ("--run-dir --json" would make a directory named --json), are refused. The
// positional arguments (`positional`) may repeat.
// A switch takes no value: "--closed=false" would read as given (true), so any value other
// than "true" is refused rather than silently turned around.
void check_arguments(const cxxopts::Options& options, const cxxopts::ParseResult& result,
                     const std::string& positional, const char* command) {
  std::vector<std::string> switches;
  for (const auto& g : options.groups()) {
    for (const auto& o : options.group_help(g).options) {
      if (o.is_boolean) switches.insert(switches.end(), o.l.begin(), o.l.end());
    }
  }
  std::vector<std::string> seen;
  for (const auto& a : result.arguments()) {
    if (a.key() == positional) continue;
    const bool is_switch = std::find(switches.begin(), switches.end(), a.key()) != switches.end();
    if (is_switch && a.value() != "true") {
      throw UsageError("--" + a.key() + " is a switch and takes no value: give --" + a.key() +
                       " for yes, leave it out for no (not --" + a.key() + "=" + a.value() + ")");
    }
    if (std::find(seen.begin(), seen.end(), a.key()) != seen.end()) {
      throw UsageError("--" + a.key() + " is given twice; give it once (see knightstour " +
                       command + " --help)");
    }
    seen.push_back(a.key());
    if (a.value().rfind("--", 0) == 0 && a.value().size() > 2) {
      throw UsageError("--" + a.key() + " needs a value, not the option '" + a.value() +
                       "' (see knightstour " + command + " --help)");
    }
  }
  if (result.count("shard-index") && !result.count("shard-count")) {
    throw UsageError("--shard-index goes with --shard-count (the number of shards)");
  }
}

// Unknown flags, missing values and stray arguments become UsageErrors.
// What cxxopts would misread before it parses: a negative number ("-5x5" reads as the short
// options 5, x, 5) and a switch given a value ("--closed=true" reads as "--closed", so that
// "--closed=false" is refused below and "--closed=true" is not).
void check_words(const cxxopts::Options& options, int argc, char** argv) {
  std::vector<std::string> switches;
  for (const auto& g : options.groups()) {
    for (const auto& o : options.group_help(g).options) {
      if (o.is_boolean) switches.insert(switches.end(), o.l.begin(), o.l.end());
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    // The value of the option before it ("--threads -1") is that option's to refuse.
    const std::string_view before = i > 1 ? argv[i - 1] : "";
    const bool a_value =
        before.starts_with("--") && before.find('=') == std::string_view::npos &&
        std::find(switches.begin(), switches.end(), before.substr(2)) == switches.end();
    if (!a_value && word.size() >= 2 && word[0] == '-' && word[1] >= '0' && word[1] <= '9') {
      throw UsageError("'" + std::string(word) +
                       "' is not an option, and boards, squares and numbers are not negative "
                       "(see knightstour " +
                       argv[0] + " --help)");
    }
    const auto equals = word.find('=');
    if (word.starts_with("--") && equals != std::string_view::npos) {
      const std::string name(word.substr(2, equals - 2));
      if (std::find(switches.begin(), switches.end(), name) != switches.end()) {
        throw UsageError("--" + name + " is a switch and takes no value: give --" + name +
                         " for yes, leave it out for no (not " + std::string(word) + ")");
      }
    }
  }
}

bool parse(cxxopts::Options& options, const std::string& positional, int argc, char** argv,
           cxxopts::ParseResult& result) {
  check_words(options, argc, argv);
  try {
    result = options.parse(argc, argv);
  } catch (const cxxopts::exceptions::no_such_option& e) {
    const std::string hint = suggestion(options, argc, argv);
    throw UsageError(
        std::string(e.what()) +
        (hint.empty() ? " (see knightstour " + std::string(argv[0]) + " --help)" : hint));
  } catch (const cxxopts::exceptions::exception& e) {
    throw UsageError(std::string(e.what()) + " (see knightstour " + argv[0] + " --help)");
  }
  if (result.count("help")) {
    std::cout << ordered_help(options) << '\n';
    return false;
  }
  if (!result.unmatched().empty()) {
    throw UsageError("unexpected argument '" + result.unmatched().front() + "' (see knightstour " +
                     argv[0] + " --help)");
  }
  check_arguments(options, result, positional, argv[0]);
  return true;
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

cxxopts::Options command_options(const std::string& name, const std::string& description,
                                 const std::string& usage, const std::string& positional,
                                 const std::string& positional_help) {
  cxxopts::Options options("knightstour " + name, description);
  options.custom_help(usage);
  options.positional_help("");
  options.add_options()(positional, positional_help,
                        positional == "board" ? cxxopts::value<std::string>()
                                              : cxxopts::value<std::vector<std::string>>());
  return options;
}

bool parse_command(cxxopts::Options& options, const std::string& positional, int argc, char** argv,
                   cxxopts::ParseResult& result) {
  add_common_options(options);
  options.parse_positional({positional});
  if (!parse(options, positional, argc, argv, result)) return false;
  setup_logging(result);
  return true;
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
