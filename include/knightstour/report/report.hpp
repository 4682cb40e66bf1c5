#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace knightstour {

// A command's result as a person reads it and as a program parses it, both made at once from
// the same figures (each computed once): lines of text, and one JSON object. The CLI renders
// either, spelling each `$field` a line names as its command-line flag (cli/flag_names.cpp).
struct Report {
  // Text lines, each "label      words" or a line of a table, without '\n'.
  std::vector<std::string> lines;
  // The JSON object, serialized. A count past 64 bits is a string kExactCount + its digits,
  // which the CLI writes back as a bare integer (nlohmann's model holds 64 bits).
  std::string json;
  // How the command ended, besides its figures (the CLI's exit code).
  enum class Outcome {
    complete,
    stopped,     // before its figures were complete: a signal, a cap, a unit missing
    failed,      // a check failed (a verdict, a set of shards that is not one): named above
    unreadable,  // something it was given could not be read: named above
  };
  Outcome outcome = Outcome::complete;
  // The JSON carries this build's provenance (verify's verdict never has).
  bool stamped = true;
};

inline constexpr std::string_view kExactCount = "#exact:";

}  // namespace knightstour
