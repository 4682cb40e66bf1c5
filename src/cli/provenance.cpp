#include "provenance.hpp"

#include <nlohmann/json.hpp>
#include <string>

#include "build_info.hpp"
#include "knightstour/base/cpus.hpp"

namespace knightstour::cli {

namespace {

std::string g_command_line;

// A word as a POSIX shell reads it back: bare when it holds only safe characters.
std::string shell_quoted(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789,._+:@%/=-") == std::string::npos;
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

void remember_command_line(int argc, char** argv) {
  g_command_line.clear();
  for (int i = 0; i < argc; ++i) {
    if (i) g_command_line += ' ';
    g_command_line += shell_quoted(i == 0 ? std::string("knightstour") : std::string(argv[i]));
  }
}

Provenance provenance() {
  return {build_info().git_commit, g_command_line, host_name(), cpu_model(), slurm_job()};
}

void add_provenance(nlohmann::json& j) {
  const auto p = provenance();
  j["version"] = build_info().version;
  j["git_commit"] = p.git_commit;
  j["command_line"] = p.command_line;
  j["host"] = p.host;
  j["cpu_model"] = p.cpu_model;
  j["slurm_job"] = p.slurm_job;
}

}  // namespace knightstour::cli
