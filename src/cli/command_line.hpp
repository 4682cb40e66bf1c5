#pragma once

// Reading a subcommand's command line: its options declared, argv parsed and checked (a
// typo gets a suggestion, an option given twice or a switch given a value is refused), help
// printed, logging set up. What the options ask for becomes a request in cli_options.

// Paths given as repeated positional arguments may contain commas, which cxxopts would
// split on by default.
#define CXXOPTS_VECTOR_DELIMITER '\0'
// cxxopts' std::regex option parser costs milliseconds at every start; its plain one is enough.
#define CXXOPTS_NO_REGEX true

#include <cxxopts.hpp>
#include <string>

namespace knightstour::cli {

// A subcommand's options ("knightstour NAME"), with its usage line and its positional
// argument (e.g. "board") declared.
cxxopts::Options command_options(const std::string& name, const std::string& description,
                                 const std::string& usage, const std::string& positional,
                                 const std::string& positional_help);

// Adds the options every subcommand has (--log-level, --help), parses argv (argv[0] is the
// subcommand) with `positional` as the positional argument, and sets up logging. Returns
// false when --help was given (help printed).
bool parse_command(cxxopts::Options& options, const std::string& positional, int argc, char** argv,
                   cxxopts::ParseResult& result);

}  // namespace knightstour::cli
