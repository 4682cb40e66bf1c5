#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace knightstour::cli {

// Counts in JSON are bare integer literals of any size (exact: 13267364410532 or a number
// past 2^64 alike). nlohmann's model holds at most 64 bits, so a report puts a larger count in
// as a marked string (kExactCount, report/report.hpp) and dump_json() writes it back as
// digits. Readers: Python's json reads every integer exactly; a reader that turns numbers into
// doubles loses digits past 2^53.
std::string dump_json(const nlohmann::json& j);
// Every command's --json goes out through here, so counts read the same in all of them.
void print_json_object(const nlohmann::json& j);

}  // namespace knightstour::cli
