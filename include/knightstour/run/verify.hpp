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

// How much verify_run_directory() reads.
struct RunCheck {
  // Every tour of every file; else only that each file holds as many rows as its journal
  // lines give (the bookkeeping, at the cost of reading headers or decompressing): what
  // status, --resume and merge check before they read a count.
  bool read_tours = true;
};

// Checks a run directory of the enumerator: the one check that verify, status, --resume and
// merge share, so that none of them takes a count from a run another refuses. What an
// interrupted session leaves in a run that is not finished (a torn last journal line, a
// finished tour file not yet journaled, temp files) is a note: those prefixes are simply not
// done, and --resume redoes them; anything else is a problem. It checks the manifest (its
// checksum) against the plan it describes, journal lines (their checksums) against the plan
// and against one another (mirror images), every tour of every tour file (a tour, from a journaled
// prefix of the run's plan, in the file the journal names, closed when the run is closed, never
// twice), file totals against the journal, journal totals against the manifest. Throws FormatError
// when an input cannot be read at all (truncated or foreign file, corrupt journal line, bad
// manifest).
VerifyReport verify_run_directory(const std::filesystem::path& dir, RunCheck check = {});

// Checks several run directories against one another: none given twice, no prefix with tours
// held by two directories of one job. Fails `total` with the first overlap found.
void verify_disjoint(const std::vector<std::filesystem::path>& dirs,
                     const std::vector<VerifyReport>& reports, VerifyReport& total);

// Checks loose tour files: every row a tour (closed / from a start when asked), none twice.
VerifyReport verify_tour_files(const std::vector<std::filesystem::path>& files,
                               VerifyOptions options);

}  // namespace knightstour
