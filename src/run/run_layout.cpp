#include "knightstour/run/run_layout.hpp"

#include <charconv>
#include <string_view>

#include "knightstour/io/posix_file.hpp"

namespace knightstour::run_layout {

namespace {

constexpr std::string_view kJournalPrefix = "journal-";
constexpr std::string_view kJournalSuffix = ".tsv";
constexpr std::string_view kToursPrefix = "tours-";
constexpr std::string_view kCheckpointPrefix = "checkpoint-";
constexpr std::string_view kCheckpointSuffix = ".bin";
constexpr std::string_view kStagedSuffix = ".staged.bin";

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view x) {
  return s.size() >= x.size() && s.substr(s.size() - x.size()) == x;
}

// Reads the decimal number at the front of `s`; advances `s` past it.
template <class T>
std::optional<T> number(std::string_view& s) {
  T value{};
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} || ptr == s.data()) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
  return value;
}

}  // namespace

std::filesystem::path manifest_path(const std::filesystem::path& dir) { return dir / kManifest; }

std::filesystem::path rank_dir(const std::filesystem::path& dir, int rank) {
  return dir / ("rank-" + std::to_string(rank));
}

bool holds_ranked_shares(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / kRanksFile, ec) &&
         !std::filesystem::exists(manifest_path(dir), ec);
}

std::optional<int> parse_rank_dir_name(const std::string& name) {
  std::string_view s = name;
  if (!starts_with(s, "rank-")) return std::nullopt;
  s.remove_prefix(5);
  const auto rank = number<int>(s);
  if (!rank || !s.empty() || *rank < 0) return std::nullopt;
  return rank;
}

std::string journal_name(int shard) {
  return std::string(kJournalPrefix) + std::to_string(shard) + std::string(kJournalSuffix);
}

std::string tour_file_name(int shard, std::uint64_t part, const std::string& extension) {
  return std::string(kToursPrefix) + std::to_string(shard) + "-" + std::to_string(part) + extension;
}

std::string checkpoint_name(int sweep) {
  return std::string(kCheckpointPrefix) + std::to_string(sweep) + std::string(kCheckpointSuffix);
}

std::string staged_checkpoint_name(int sweep) {
  return std::string(kCheckpointPrefix) + std::to_string(sweep) + std::string(kStagedSuffix);
}

namespace {

std::optional<int> sweep_between(std::string_view s, std::string_view suffix) {
  if (!starts_with(s, kCheckpointPrefix)) return std::nullopt;
  s.remove_prefix(kCheckpointPrefix.size());
  const std::string_view digits = s;
  const auto sweep = number<int>(s);
  if (!sweep || s != suffix || *sweep < 0) return std::nullopt;
  if (digits.substr(0, digits.size() - suffix.size()) != std::to_string(*sweep))
    return std::nullopt;  // not as checkpoint_name() writes it: "01", "+1"
  return sweep;
}

}  // namespace

std::optional<int> parse_checkpoint_name(const std::string& name) {
  return sweep_between(name, kCheckpointSuffix);
}

std::optional<int> parse_staged_checkpoint_name(const std::string& name) {
  return sweep_between(name, kStagedSuffix);
}

std::optional<int> parse_any_checkpoint_name(const std::string& name) {
  const auto sweep = parse_checkpoint_name(name);
  return sweep ? sweep : parse_staged_checkpoint_name(name);
}

std::optional<TourFileName> parse_tour_file_name(const std::string& name) {
  std::string_view s = name;
  if (!starts_with(s, kToursPrefix) || is_temp_name(name)) return std::nullopt;
  s.remove_prefix(kToursPrefix.size());
  const auto shard = number<int>(s);
  if (!shard || !starts_with(s, "-")) return std::nullopt;
  s.remove_prefix(1);
  const auto part = number<std::uint64_t>(s);
  if (!part || !starts_with(s, ".")) return std::nullopt;
  return TourFileName{*shard, *part};
}

bool is_journal_name(const std::string& name) {
  return starts_with(name, kJournalPrefix) && ends_with(name, kJournalSuffix);
}

bool is_temp_name(const std::string& name) { return ends_with(name, kTempSuffix); }

bool holds_run_file(const std::string& name) {
  for (const char* fixed : kRunFileNames) {
    if (name == fixed) return true;
  }
  return starts_with(name, kJournalPrefix) || starts_with(name, kToursPrefix) ||
         starts_with(name, kCheckpointPrefix) || parse_rank_dir_name(name).has_value();
}

}  // namespace knightstour::run_layout
