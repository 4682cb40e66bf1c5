#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/board/board.hpp"

namespace knightstour {

struct VerifyReport {
  bool ok = true;
  std::string problem;             // the first problem found: where, and why
  std::vector<std::string> notes;  // facts worth saying that are not problems
  std::uint64_t files = 0;
  std::uint64_t tours = 0;
  std::uint64_t closed = 0;  // tours whose last square is next to their first
  bool run_directory = false;
  std::uint64_t counted = 0;  // tours a count run's journal holds (no files to check)
  std::string run_status;     // "complete" / "incomplete" for a run directory
  std::size_t prefixes = 0;   // in the run's shard(s)
  std::size_t prefixes_journaled = 0;
  // For comparing run directories with one another: the job, whatever the shard (two
  // directories of one job hold the same tours exactly when they journal the same prefix),
  // and the journaled prefixes that hold tours.
  std::string job;
  std::vector<std::size_t> prefixes_with_tours;

  void fail(std::string why) {
    if (ok) problem = std::move(why);
    ok = false;
  }
};

struct VerifyOptions {
  std::optional<BoardShape> board;     // needed for bare .npy files without a manifest next to them
  bool closed = false;                 // every tour must be closed
  std::optional<std::uint32_t> start;  // every tour must start here
  std::vector<std::uint32_t> prefix;   // every tour must begin with these squares
};

// How much verify_run_directory() reads, and what it calls a problem.
struct RunCheck {
  // Every tour of every file; else only that each file holds as many rows as its journal
  // lines give (the bookkeeping, at the cost of reading headers or decompressing).
  bool read_tours = true;
  // What an interrupted session leaves (a torn last journal line, a finished tour file not
  // yet journaled) is a problem; else a note: those prefixes simply do not count as done.
  bool residue_is_problem = true;
};

// Checks a run directory: manifest against the plan it describes, journal lines against the
// plan, every tour of every tour file (a tour, from a journaled prefix of the run's plan, in the
// file the journal names, closed when the run is closed, never twice), file totals against the
// journal, journal totals against the manifest. Throws FormatError when an input cannot be read
// at all (truncated or foreign file, corrupt journal line, bad manifest).
VerifyReport verify_run_directory(const std::filesystem::path& dir, RunCheck check = {});

// Checks several run directories against one another: none given twice, no prefix with tours
// held by two directories of one job. Fails `total` with the first overlap found.
void verify_disjoint(const std::vector<std::filesystem::path>& dirs,
                     const std::vector<VerifyReport>& reports, VerifyReport& total);

// Checks loose tour files: every row a tour (closed / from a start when asked), none twice.
VerifyReport verify_tour_files(const std::vector<std::filesystem::path>& files,
                               VerifyOptions options);

}  // namespace knightstour
