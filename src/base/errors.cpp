#include "knightstour/base/errors.hpp"

namespace knightstour {

void refuse_first(const std::vector<std::string>& refusals) {
  if (!refusals.empty()) throw UsageError(refusals.front());
}

}  // namespace knightstour
