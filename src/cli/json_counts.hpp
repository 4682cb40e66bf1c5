#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "knightstour/frontier/wide_count.hpp"

namespace knightstour::cli {

// Counts in JSON are bare integer literals of any size (exact: 13267364410532 or a number
// past 2^64 alike). nlohmann's model holds at most 64 bits, so a larger count is put in as a
// marked string and dump_json() writes it back as digits. Readers: Python's json reads every
// integer exactly; a reader that turns numbers into doubles loses digits past 2^53.
nlohmann::json json_count(const BigCount& n);
nlohmann::json json_counts(const std::vector<BigCount>& v);
std::string dump_json(const nlohmann::json& j);
// Every command's --json goes out through here, so counts read the same in all of them.
void print_json_object(const nlohmann::json& j);

}  // namespace knightstour::cli
