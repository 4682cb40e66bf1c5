#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace knightstour {

// A message names an option by its request's field after a `$` ("$resume", "$memory_budget",
// "$every_length"): the library knows fields, not flags. The CLI spells each as its flag
// (src/cli/flag_names.cpp) on every message it prints; scripts/checks/layering.py refuses a
// flag spelled in a string of base/, run/, frontier/ or frontier_run/.

// Bad usage or bad input: the CLI prints the message on one line and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A request's check() lists every rule it breaks; its user refuses the first, as a UsageError.
void refuse_first(const std::vector<std::string>& refusals);

// A file or system call failed: the CLI prints the message and exits 1.
// Whatever was already committed to a run directory stays valid.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An input file is not a readable tour file, journal or manifest (verify exits 2).
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// SIGINT or SIGTERM arrived before any work began (e.g. while planning): the CLI prints the
// message and exits 3.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace knightstour
