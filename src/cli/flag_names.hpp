#pragma once

#include <string>
#include <string_view>

namespace knightstour::cli {

// The library names an option in a message by its request field after a `$` ("$resume",
// "$memory_budget": base/errors.hpp); the command line spells it as its flag here, the one
// place that knows both. Every message the CLI prints from the library passes through this:
// errors, log lines (the logger's formatter), verify's findings and status's problems. A `$`
// before any other word is left as it is.
std::string spell_flags(std::string_view message);

}  // namespace knightstour::cli
