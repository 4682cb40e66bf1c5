#include "knightstour/count/verify.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace {

// A file verify cannot read is a path that cannot be read (exit 2, as a directory is), not an
// I/O failure met halfway (exit 1): every file of a run directory, or a file given, is looked
// at before any is read. Files that come and go while a count runs are not missed files.
void check_files_readable(const std::filesystem::path& p) {
  auto readable = [](const std::filesystem::path& f) {
    if (::access(f.c_str(), R_OK) != 0 && errno != ENOENT)
      throw UsageError("cannot read " + f.string() + ": " + std::strerror(errno));
  };
  std::error_code ec;
  if (!std::filesystem::is_directory(p, ec)) {
    readable(p);
    return;
  }
  for (std::filesystem::recursive_directory_iterator it(p, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code kind;
    if (it->is_regular_file(kind)) readable(it->path());
  }
}

// A run directory says its own board: a board given that disagrees is refused, not ignored.
void check_board_agrees(const std::vector<std::string>& paths, const BoardShape& board) {
  for (const auto& p : paths) {
    if (!std::filesystem::exists(run_layout::manifest_path(p))) continue;
    try {
      const RunManifest m = read_manifest(p);
      if (m.rows != board.rows || m.cols != board.cols) {
        throw UsageError("$board " + board.name() + " does not match the run in " + p + " (" +
                         m.board_name() +
                         "); leave out $board: a run directory says "
                         "its board");
      }
    } catch (const FormatError&) {
      // A damaged manifest is verify's to report.
    }
  }
}

SummedVerdict verify_paths(const std::vector<std::string>& paths,
                           const VerifyOptions& loose_options) {
  std::vector<VerifyReport> reports;
  std::vector<std::filesystem::path> loose, dirs;
  for (const auto& p : paths) {
    std::error_code ec;
    const auto status = std::filesystem::status(p, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
      throw FormatError(p + ": cannot read it: " + ec.message());
    if (!std::filesystem::exists(status)) throw FormatError(p + " does not exist");
    if (std::filesystem::is_directory(status)) {
      // Readable: verify() checked every path given before this.
      if (!std::filesystem::exists(run_layout::manifest_path(p))) {
        throw FormatError(p + " is a directory but not a run directory (no " +
                          run_layout::kManifest + "); give tour files or a run directory");
      }
      reports.push_back(verify_run_directory(p));
      dirs.emplace_back(p);
    } else {
      loose.emplace_back(p);
    }
  }
  SummedVerdict out;
  VerifyReport& total = out.total;
  verify_disjoint(dirs, reports, total);
  if (!loose.empty()) reports.push_back(verify_tour_files(loose, loose_options));
  for (const auto& r : reports) {
    if (!r.ok) total.fail(r.problem);
    total.files += r.files;
    add_checked(total.tours, r.tours, "verify");
    add_checked(total.counted, r.counted, "verify");
    add_checked(total.closed, r.closed, "verify");
    total.prefixes += r.prefixes;
    total.prefixes_journaled += r.prefixes_journaled;
    total.notes.insert(total.notes.end(), r.notes.begin(), r.notes.end());
  }
  out.reports = reports.size();
  return out;
}

}  // namespace

bool verdict_ok(const Verdict& verdict) {
  if (const auto* f = std::get_if<FrontierRunVerdict>(&verdict)) return f->verdict.ok;
  return std::get<SummedVerdict>(verdict).total.ok;
}

std::vector<std::string> check(const VerifyRequest& request) {
  std::vector<std::string> refusals;
  if (request.paths.empty()) refusals.emplace_back("verify needs a run directory or tour files");
  return refusals;
}

Verdict verify(const VerifyRequest& request) {
  refuse_first(check(request));
  const auto& paths = request.paths;
  if (request.loose.board) check_board_agrees(paths, *request.loose.board);
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) check_readable_run_path(p);
    check_files_readable(p);
  }
  // A frontier run directory holds counts and checkpoints, no tours: it is checked on its own.
  for (const auto& p : paths) {
    // A path that cannot be looked at is the checks' below to report.
    const bool ranked = run_layout::holds_ranked_shares(p);
    if (!ranked && manifest_method(p) != Method::frontier) continue;
    if (paths.size() != 1) {
      throw UsageError(p + " is a frontier run directory: verify it on its own");
    }
    return FrontierRunVerdict{p, ranked ? verify_ranked_run(p) : verify_frontier_run(p)};
  }
  return verify_paths(paths, request.loose);
}

}  // namespace knightstour
