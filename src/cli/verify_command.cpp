#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "commands.hpp"
#include "flag_names.hpp"
#include "json_counts.hpp"
#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/frontier_run/verify_frontier.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "knightstour/run/verify.hpp"
#include "output.hpp"

namespace knightstour::cli {

namespace {

int print_frontier_verdict(const std::string& dir, FrontierVerdict v, bool json) {
  v.problem = spell_flags(v.problem);
  for (std::string& c : v.checked) c = spell_flags(c);
  if (json) {
    nlohmann::json j{{"ok", v.ok},
                     {"problem", v.ok ? nlohmann::json(nullptr) : nlohmann::json(v.problem)},
                     {"method", "frontier"},
                     {"checked", v.checked}};
    print_json_object(j);
  } else {
    if (v.ok) {
      std::printf(
          "verify: OK: frontier run %s (no tours to check: it holds counts and checkpoints)\n",
          dir.c_str());
    } else {
      std::printf("verify: FAILED: %s\n", v.problem.c_str());
    }
    for (const auto& c : v.checked) std::printf("checked: %s\n", c.c_str());
  }
  return v.ok ? kExitOk : kExitVerifyFailed;
}

// verify's options, parsed: the paths and what loose files must hold.
struct VerifyArguments {
  std::vector<std::string> paths;
  VerifyOptions loose;
  bool json = false;
};

// Returns nothing when --help was given (help printed).
std::optional<VerifyArguments> verify_arguments(int argc, char** argv) {
  auto options = command_options(
      "verify",
      "Check tour files or a run directory: exit 0 valid, 4 a problem (named), 2 unreadable",
      "PATH... [--board RxC] [--closed] [--start SQ]", "paths", "Run directories or tour files");
  options.add_options("Loose files")("board",
                                     "Board of loose .npy files (text and board files, and files "
                                     "next to a manifest, tell it themselves)",
                                     cxxopts::value<std::string>())(
      "closed", "Every tour must be closed")("start", "Every tour must start on this square",
                                             cxxopts::value<std::string>());
  options.add_options("Output")("json", "Print the verdict as one JSON object");
  cxxopts::ParseResult result;
  if (!parse_command(options, "paths", argc, argv, result)) return std::nullopt;
  if (!result.count("paths")) throw UsageError("verify needs a run directory or tour files");
  VerifyArguments a;
  a.paths = result["paths"].as<std::vector<std::string>>();
  a.json = result.count("json") > 0;
  VerifyOptions& vo = a.loose;
  if (result.count("board")) vo.board = parse_board_shape(result["board"].as<std::string>());
  vo.closed = result.count("closed") > 0;
  if (result.count("start")) {
    if (!vo.board) throw UsageError("--start needs --board");
    const auto rc = parse_row_col(*vo.board, result["start"].as<std::string>(), "start square");
    vo.start = static_cast<std::uint32_t>(rc.row * vo.board->cols + rc.col);
  }
  return a;
}

// A file verify cannot read is a path that cannot be read (exit 2, as a directory is), not an
// I/O failure met halfway (exit 1): every file of a run directory, or a file given, is looked
// at before any is read. Files that come and go while a count runs are not missed files.
void check_files_readable(const std::filesystem::path& p) {
  auto check = [](const std::filesystem::path& f) {
    if (::access(f.c_str(), R_OK) != 0 && errno != ENOENT)
      throw UsageError("cannot read " + f.string() + ": " + std::strerror(errno));
  };
  std::error_code ec;
  if (!std::filesystem::is_directory(p, ec)) {
    check(p);
    return;
  }
  for (std::filesystem::recursive_directory_iterator it(p, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code kind;
    if (it->is_regular_file(kind)) check(it->path());
  }
}

// A run directory says its own board: a --board that disagrees is refused, not ignored.
void check_board_agrees(const std::vector<std::string>& paths, const BoardShape& board) {
  for (const auto& p : paths) {
    if (!std::filesystem::exists(run_layout::manifest_path(p))) continue;
    try {
      const RunManifest m = read_manifest(p);
      if (m.rows != board.rows || m.cols != board.cols) {
        throw UsageError("--board " + board.name() + " does not match the run in " + p + " (" +
                         m.board_name() +
                         "); leave out --board: a run directory says "
                         "its board");
      }
    } catch (const FormatError&) {
      // A damaged manifest is verify's to report.
    }
  }
}

// The enumerator's run directories and loose tour files, each checked: the verdicts summed,
// and how many reports they came from.
struct SummedVerdict {
  VerifyReport total;
  std::size_t reports = 0;
};

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
      // Readable: verify_command checked every path given before this.
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

void print_verdict_json(const VerifyReport& total) {
  nlohmann::json j{
      {"ok", total.ok},
      {"problem", total.ok ? nlohmann::json(nullptr) : nlohmann::json(total.problem)},
      {"files", total.files},
      {"tours", total.tours + total.counted},  // checked in files, or journaled by count runs
      {"counted_tours", total.counted},
      {"closed_tours", total.closed},
      {"prefixes", total.prefixes},
      {"prefixes_journaled", total.prefixes_journaled},
      {"notes", total.notes}};
  print_json_object(j);
}

void print_verdict_text(const VerifyReport& total, std::size_t reports) {
  if (total.ok && total.files == 0 && total.counted > 0) {
    // A count run holds counts, not tours: say what was checked, not "tours in 0 files".
    std::printf("verify: OK: count run%s of %s tours (%s closed); no tour files to check",
                reports == 1 ? "" : "s", with_commas(total.counted).c_str(),
                with_commas(total.closed).c_str());
    std::printf("; %s of %s prefixes journaled, bookkeeping consistent\n",
                with_commas(total.prefixes_journaled).c_str(), with_commas(total.prefixes).c_str());
  } else if (total.ok) {
    std::printf("verify: OK: %s tour%s in %s file%s, each a distinct knight's tour (%s closed)",
                with_commas(total.tours).c_str(), total.tours == 1 ? "" : "s",
                with_commas(total.files).c_str(), total.files == 1 ? "" : "s",
                with_commas(total.closed).c_str());
    if (total.prefixes > 0) {
      std::printf("; %s of %s prefixes journaled, bookkeeping consistent",
                  with_commas(total.prefixes_journaled).c_str(),
                  with_commas(total.prefixes).c_str());
    }
    std::printf("\n");
  } else {
    std::printf("verify: FAILED: %s\n", total.problem.c_str());
  }
  for (const auto& n : total.notes) std::printf("note: %s\n", n.c_str());
}

}  // namespace

int verify_command(int argc, char** argv) {
  const std::optional<VerifyArguments> a = verify_arguments(argc, argv);
  if (!a) return kExitOk;
  const auto& paths = a->paths;
  if (a->loose.board) check_board_agrees(paths, *a->loose.board);

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
    return print_frontier_verdict(p, ranked ? verify_ranked_run(p) : verify_frontier_run(p),
                                  a->json);
  }
  SummedVerdict v = verify_paths(paths, a->loose);
  v.total.problem = spell_flags(v.total.problem);
  for (std::string& n : v.total.notes) n = spell_flags(n);
  if (a->json) {
    print_verdict_json(v.total);
  } else {
    print_verdict_text(v.total, v.reports);
  }
  return v.total.ok ? kExitOk : kExitVerifyFailed;
}

}  // namespace knightstour::cli
