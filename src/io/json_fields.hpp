#pragma once

// Reading the fields of a JSON file that knightstour wrote (a run's manifest of either
// method), refusing what it would never write. Private to the library: public headers name
// no third-party type.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "knightstour/base/errors.hpp"

namespace knightstour::json_fields {

// A whole number of type T under `key`, refused (not truncated, not wrapped) when the JSON
// holds a fraction, an exponent form, a negative for an unsigned field, or something too big.
template <class T>
T whole(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_integer()) {
    throw FormatError(std::string(key) + " is " + v.dump() + ", not a whole number");
  }
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (!std::in_range<T>(u)) throw FormatError(std::string(key) + " " + v.dump() + " is too big");
    return static_cast<T>(u);
  }
  const auto i = v.get<std::int64_t>();
  if (!std::in_range<T>(i))
    throw FormatError(std::string(key) + " " + v.dump() + " is out of range");
  return static_cast<T>(i);
}

template <class T>
T whole_or(const nlohmann::json& j, const char* key, T fallback) {
  return j.contains(key) ? whole<T>(j, key) : fallback;
}

// A count as a decimal string: digits, no leading zero, shorter than 200 characters.
inline bool is_decimal(const std::string& s) {
  return !s.empty() && s.size() < 200 && s.find_first_not_of("0123456789") == std::string::npos &&
         (s == "0" || s[0] != '0');
}

// Runs `read` on the manifest in `where`: whatever it refuses comes out as one FormatError
// "WHERE is not a valid manifest: WHY" (a FormatError that names `where` already, as is).
template <class Read>
void reading(const std::string& where, Read&& read) {
  auto bad = [&](const std::string& why) {
    return FormatError(where + " is not a valid manifest: " + why);
  };
  try {
    std::forward<Read>(read)();
  } catch (const nlohmann::json::exception& e) {
    throw bad(e.what());
  } catch (const UsageError& e) {  // an unknown algorithm, format or compression name
    throw bad(e.what());
  } catch (const FormatError& e) {
    const std::string what = e.what();
    if (what.rfind(where, 0) == 0) throw;
    throw bad(what);
  }
}

}  // namespace knightstour::json_fields
