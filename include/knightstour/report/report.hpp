#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace knightstour {

// A command's result as a person reads it and as a program parses it, both made at once from
// the same figures (each computed once): lines of text, and one JSON object. The CLI renders
// either, spelling each `$field` a line names as its command-line flag (cli/flag_names.cpp).
struct Report {
  // Text lines, each "label      words" (report_line) or a line of a table, without '\n'.
  std::vector<std::string> lines;
  // The JSON object, serialized. A count past 64 bits is a string kExactCount + its digits,
  // which the CLI writes back as a bare integer (nlohmann's model holds 64 bits).
  std::string json;
  // The command was stopped (by a signal) before its figures were complete.
  bool stopped = false;
  // A check failed (verify's verdict): the problem is named in the figures.
  bool failed = false;
  // The JSON carries this build's provenance (verify's verdict never has).
  bool stamped = true;

  // Adds "label" padded to the text column, then `words` (which may hold '\n' + kIndent).
  void line(std::string_view label, std::string_view words);
};

inline constexpr std::string_view kExactCount = "#exact:";
// The text column: a line's words start here, and its continuation lines are indented so.
inline constexpr std::string_view kIndent = "           ";

}  // namespace knightstour
