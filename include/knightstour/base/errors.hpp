#pragma once

#include <stdexcept>
#include <string>

namespace knightstour {

// Bad usage or bad input: the CLI prints the message on one line and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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
