#include "count_csv.hpp"

#include <cstdio>
#include <filesystem>

#include "knightstour/base/errors.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/report/count_csv.hpp"

namespace knightstour::cli {

void add_csv_option(cxxopts::Options& options) {
  options.add_options("Output")(
      "csv",
      "Also write the count's table as CSV to FILE: a row's lengths, the start x end table, the "
      "counts by start square, or the counts (docs/formats.md); with --modulus, a last "
      "column `modulus`",
      cxxopts::value<std::string>());
}

std::optional<std::string> csv_file(const cxxopts::ParseResult& result) {
  if (!result.count("csv")) return std::nullopt;
  const auto path = result["csv"].as<std::string>();
  if (path.empty() || path == "-") throw UsageError("--csv needs a file name");
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent)) {
    throw UsageError("--csv " + path + ": no such directory " + parent.string());
  }
  return path;
}

bool write_count_csv(const CountResult& r, const std::string& path) {
  if (!r.complete || r.counts != CountResult::Counts::exact) {
    std::fprintf(stderr, "knightstour: --csv %s not written: the count did not complete\n",
                 path.c_str());
    return false;
  }
  write_file_atomically(path, count_csv(r));
  return true;
}

}  // namespace knightstour::cli
