#include "flag_names.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace knightstour::cli {

namespace {

// Request field -> flag, for the fields the library's messages name.
constexpr std::array<std::pair<std::string_view, std::string_view>, 35> kFlags{{
    {"algorithm", "--algorithm"},
    {"all_starts", "--all-starts"},
    {"board", "--board"},
    {"calibrate", "--calibrate"},
    {"checkpoint_seconds", "--checkpoint"},
    {"closed", "--closed"},
    {"cores_per_shard", "--cores-per-shard"},
    {"end", "--end"},
    {"every_length", "--every-length"},
    {"grid", "--grid"},
    {"json", "--json"},
    {"max_nodes", "--max-nodes"},
    {"max_tours", "--max-tours"},
    {"memory_budget", "--memory"},
    {"method", "--method"},
    {"modulus", "--modulus"},
    {"no_mirror_fold", "--no-mirror-fold"},
    {"no_symmetry", "--no-symmetry"},
    {"out", "--out"},
    {"prefix", "--prefix"},
    {"residue_unit", "--residue-unit"},
    {"resume", "--resume"},
    {"run_dir", "--run-dir"},
    {"sample", "--sample"},
    {"seed", "--seed"},
    {"shard_count", "--shard-count"},
    {"shard_index", "--shard-index"},
    {"spill_dir", "--spill-dir"},
    {"split_depth", "--split-depth"},
    {"start", "--start"},
    {"threads", "--threads"},
    {"time_limit", "--time-limit"},
    {"total_only", "--total-only"},
    {"up_to_symmetry", "--up-to-symmetry"},
    {"walks", "--walks"},
}};

bool field_char(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }

}  // namespace

std::string spell_flags(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  std::size_t i = 0;
  while (i < message.size()) {
    if (message[i] == '$') {
      std::size_t end = i + 1;
      while (end < message.size() && field_char(message[end])) ++end;
      const std::string_view field = message.substr(i + 1, end - i - 1);
      const auto* named = std::find_if(kFlags.begin(), kFlags.end(),
                                       [&](const auto& f) { return f.first == field; });
      if (named != kFlags.end()) {
        out += named->second;
        i = end;
        continue;
      }
    }
    out += message[i++];
  }
  return out;
}

}  // namespace knightstour::cli
