#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "cli_options.hpp"
#include "commands.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/board/tour_check.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/io/tour_file_reader.hpp"
#include "knightstour/report/words.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_layout.hpp"
#include "pictures.hpp"

namespace knightstour::cli {

namespace fs = std::filesystem;

namespace {

// The tour files of a run directory in the order a reader of the run sees them: by shard,
// then by part.
std::vector<fs::path> run_tour_files(const fs::path& dir) {
  std::vector<std::pair<run_layout::TourFileName, fs::path>> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (const auto name = run_layout::parse_tour_file_name(entry.path().filename().string()))
      found.emplace_back(*name, entry.path());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.shard, a.first.part) < std::pair(b.first.shard, b.first.part);
  });
  std::vector<fs::path> files;
  for (auto& f : found) files.push_back(std::move(f.second));
  return files;
}

BoardShape shape_of_file(const fs::path& file, const cxxopts::ParseResult& result) {
  if (result.count("board")) return parse_board_shape(result["board"].as<std::string>());
  const auto dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  if (fs::exists(run_layout::manifest_path(dir))) {
    const auto m = read_manifest(dir);
    return {m.rows, m.cols};
  }
  if (auto inferred = infer_board_shape(file)) return *inferred;
  throw UsageError("cannot tell the board of " + file.string() + ": give --board RxC");
}

struct Found {
  fs::path file;
  std::uint64_t row_in_file = 0;
  std::string unit;  // ", work unit 17, its tour 3" when addressed by work unit
};

// Row `row` of a run counted over its work units: prefixes by id, each prefix's tours in the
// order its search found them. Which file holds a prefix, and where in it, depends on which
// thread took it; this order does not, so the same command gives the same tour for the same
// row on every run. A prefix's tours are told apart in its file by their first squares.
Found by_work_unit(const fs::path& dir, const RunManifest& m, BoardShape shape, std::uint64_t row,
                   std::vector<std::uint32_t>& tour) {
  auto records = read_committed(dir, m, std::nullopt, FileCheck::names).records;
  std::sort(records.begin(), records.end(),
            [](const JournalRecord& a, const JournalRecord& b) { return a.id < b.id; });
  const Board board(shape);
  std::uint64_t seen = 0;
  for (const auto& r : records) {
    if (seen + r.tours <= row) {
      seen += r.tours;
      continue;
    }
    const auto want = row - seen;
    const auto prefix = parse_square_list(board, r.squares, "prefix");
    const auto of_prefix = [&] {
      if (tour.size() < prefix.size()) return false;
      for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (tour[i] != static_cast<std::uint32_t>(prefix[i])) return false;
      }
      return true;
    };
    TourFileReader reader(dir / r.file, shape);
    std::uint64_t matched = 0;
    while (reader.next(tour)) {
      if (!of_prefix()) continue;
      if (matched == want) {
        return {dir / r.file, reader.rows_read() - 1,
                ", work unit " + std::to_string(r.id) + ", its tour " + with_commas(want)};
      }
      ++matched;
    }
    throw FormatError((dir / r.file).string() + " holds " + with_commas(matched) +
                      " tours of prefix " + std::to_string(r.id) + " (" + r.squares +
                      "); its journal line says " + with_commas(r.tours) +
                      ": run knightstour verify on it");
  }
  throw UsageError("row " + with_commas(row) + " is past the end: " + dir.string() + " holds " +
                   with_commas(seen) + " tours");
}

// Row `row` over the files in their order (a sample run, or a bare tour file).
Found by_file_order(const std::vector<fs::path>& files, const fs::path& path, BoardShape shape,
                    std::uint64_t row, std::vector<std::uint32_t>& tour) {
  // Skip whole .npy files by their headers; read the others row by row.
  std::uint64_t seen = 0;
  for (const auto& file : files) {
    TourFileReader reader(file, shape);
    if (reader.declared_rows() && seen + *reader.declared_rows() <= row) {
      seen += *reader.declared_rows();
      continue;
    }
    while (reader.next(tour)) {
      if (seen == row) return {file, reader.rows_read() - 1, ""};
      ++seen;
    }
  }
  throw UsageError("row " + with_commas(row) + " is past the end: " + path.string() + " holds " +
                   with_commas(seen) + " tours");
}

}  // namespace

int show_command(int argc, char** argv) {
  auto options = command_options(
      "show", "Print one tour of a run directory or tour file as its grid of move numbers",
      "RUN_DIR|FILE [--row N] [--board RxC] [--svg FILE] [--png FILE]", "path",
      "A run directory of enumerate, or one tour file");
  options.add_options()("row",
                        "Which tour, counting from 0: in a run directory over its work units "
                        "in order (the same row is the same tour on every run of a command); "
                        "in a file, its row",
                        cxxopts::value<std::string>()->default_value("0"))(
      "board", "The board of a bare .npy file (others tell it themselves)",
      cxxopts::value<std::string>());
  add_picture_options(options);
  cxxopts::ParseResult result;
  if (!parse_command(options, "path", argc, argv, result)) return kExitOk;
  if (!result.count("path")) throw UsageError("show needs a run directory or a tour file");
  const auto paths = result["path"].as<std::vector<std::string>>();
  if (paths.size() != 1) throw UsageError("show takes one run directory or tour file");
  const fs::path path = paths.front();
  const auto row = parse_count("row", result["row"].as<std::string>());

  BoardShape shape;
  bool closed_run = false;
  std::vector<std::uint32_t> tour;
  Found found;
  if (fs::is_directory(path)) {
    if (!fs::exists(run_layout::manifest_path(path)))
      throw UsageError(path.string() + " is not a run directory (no manifest.json)");
    const auto m = read_manifest(path);
    if (m.command != Command::enumerate)
      throw UsageError(path.string() + " is a count run: it holds no tours to show");
    shape = {m.rows, m.cols};
    closed_run = m.closed_only;
    found = m.sample > 0 ? by_file_order(run_tour_files(path), path, shape, row, tour)
                         : by_work_unit(path, m, shape, row, tour);
  } else {
    if (!fs::exists(path)) throw UsageError(path.string() + ": no such file or directory");
    tour_file_type(path);  // a FormatError for a name that is no tour file
    shape = shape_of_file(path, result);
    found = by_file_order({path}, path, shape, row, tour);
  }

  // The pictures are written first: a path they cannot be written to prints nothing.
  const PictureFiles pictures = picture_files(result, shape);
  write_pictures(pictures, shape, tour);
  const bool closed = knight_move(shape, tour.back(), tour.front());
  const auto name = [&](std::uint32_t s) {
    return square_name(static_cast<int>(s / static_cast<std::uint32_t>(shape.cols)),
                       static_cast<int>(s % static_cast<std::uint32_t>(shape.cols)));
  };
  std::printf("tour       row %s of %s (%s row %s%s)\n", with_commas(row).c_str(),
              path.string().c_str(), found.file.filename().string().c_str(),
              with_commas(found.row_in_file).c_str(), found.unit.c_str());
  std::printf("board      %s, from %s to %s, %s\n", shape.name().c_str(),
              name(tour.front()).c_str(), name(tour.back()).c_str(),
              closed ? "closed (the last square is a knight move from the first)" : "open");
  std::printf("\n%s", tour_grid(shape, tour).c_str());
  if (pictures.any()) std::printf("\n%s", picture_lines(pictures).c_str());
  TourChecker checker(shape, closed_run);
  if (const auto why = checker.problem(tour)) {
    std::fprintf(stderr, "knightstour: this row is not a valid tour: %s\n", why->c_str());
    return kExitVerifyFailed;
  }
  return kExitOk;
}

}  // namespace knightstour::cli
