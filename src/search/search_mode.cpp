#include "knightstour/search/search_mode.hpp"

#include "knightstour/base/errors.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

std::string to_string(Algorithm algorithm) {
  return algorithm == Algorithm::naive ? "naive" : "pruned";
}

Algorithm parse_algorithm(std::string_view text) {
  if (text == "pruned") return Algorithm::pruned;
  if (text == "naive") return Algorithm::naive;
  throw UsageError("unknown algorithm '" + std::string(text) + "': expected pruned or naive");
}

std::string SearchMode::prefix_rules() const {
  if (algorithm == Algorithm::naive) return "none";
  return "pruned-v" + std::to_string(kPruningRulesVersion);
}

}  // namespace knightstour
