#pragma once

// Paths given as repeated positional arguments may contain commas, which cxxopts would
// split on by default.
#define CXXOPTS_VECTOR_DELIMITER '\0'
// cxxopts' std::regex option parser costs milliseconds at every start; its plain one is enough.
#define CXXOPTS_NO_REGEX true

#include <cstdint>
#include <cxxopts.hpp>
#include <string>

#include "knightstour/job.hpp"

namespace knightstour::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitStopped = 3;
inline constexpr int kExitVerifyFailed = 4;
inline constexpr int kExitNoTour = 5;

// Whole-string decimal numbers; anything else (a sign, a fraction, trailing text, overflow)
// is a UsageError naming the option.
std::uint64_t parse_count(const std::string& option, const std::string& text);
int parse_int(const std::string& option, const std::string& text, int min, int max);
double parse_seconds(const std::string& option, const std::string& text);

// Options every subcommand has: --help, --log-level.
void add_common_options(cxxopts::Options& options);
// The job options of count and enumerate (and, in part, prefixes and estimate).
void add_job_options(cxxopts::Options& options);

// Parses argv (argv[0] is the subcommand). Unknown flags, missing values and stray
// arguments become UsageErrors. Returns false when --help was given (help printed).
bool parse(cxxopts::Options& options, int argc, char** argv, cxxopts::ParseResult& result);

// Board, start/prefix/all-starts, mode and the rest of add_job_options, validated.
JobSpec job_from(const cxxopts::ParseResult& result, bool allow_all_starts);

// spdlog to stderr; level from SPDLOG_LEVEL, overridden by --log-level.
void setup_logging(const cxxopts::ParseResult& result);

// The positional BOARD argument (a UsageError when missing).
std::string board_argument(const cxxopts::ParseResult& result);

}  // namespace knightstour::cli
