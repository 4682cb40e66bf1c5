#include "command_line.hpp"

#include <spdlog/cfg/env.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "flag_names.hpp"
#include "knightstour/base/errors.hpp"

namespace knightstour::cli {

namespace {

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

}  // namespace knightstour::cli
