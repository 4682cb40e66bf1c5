#include "knightstour/base/memory_room.hpp"

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "knightstour/base/cpus.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

// Limits at or past this are "no limit" (cgroup v1 writes PAGE_COUNTER_MAX pages in bytes).
constexpr std::uint64_t kUnlimited = std::uint64_t{1} << 60;

// The number after `key` on the first line starting with it (the first line's first number
// when `key` is empty); nothing when absent or not a number ("max").
std::optional<std::uint64_t> number_in(const fs::path& path, const std::string& key = "") {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!key.empty() && line.rfind(key, 0) != 0) continue;
    std::istringstream fields(line.substr(key.size()));
    std::uint64_t value = 0;
    if (fields >> value) return value;
    return std::nullopt;
  }
  return std::nullopt;
}

struct Mount {
  fs::path root;   // the part of the hierarchy mounted
  fs::path point;  // where
};

// The mount of a cgroup hierarchy: v2 (`v1_controller` empty) or the v1 hierarchy holding
// that controller.
std::optional<Mount> cgroup_mount(const fs::path& root, const std::string& v1_controller) {
  std::ifstream in(root / "proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root point options [optional fields] - fstype source super
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream head(line.substr(0, dash));
    std::istringstream tail(line.substr(dash + 3));
    std::string id, parent, dev, mroot, point, fstype, source, super;
    head >> id >> parent >> dev >> mroot >> point;
    tail >> fstype >> source >> super;
    const bool match =
        v1_controller.empty()
            ? fstype == "cgroup2"
            : fstype == "cgroup" &&
                  ("," + super + ",").find("," + v1_controller + ",") != std::string::npos;
    if (match) return Mount{mroot, root / fs::path(point).relative_path()};
  }
  return std::nullopt;
}

// This process's cgroup in the v2 hierarchy (`v1_controller` empty) or the v1 one.
std::optional<fs::path> cgroup_path(const fs::path& root, const std::string& v1_controller) {
  std::ifstream in(root / "proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // hierarchy-id:controllers:path
    const auto a = line.find(':');
    const auto b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const bool match =
        v1_controller.empty()
            ? line.substr(0, a) == "0" && controllers.empty()
            : ("," + controllers + ",").find("," + v1_controller + ",") != std::string::npos;
    if (match) return fs::path(line.substr(b + 1));
  }
  return std::nullopt;
}

// What the cgroups from this process's up to the mount's top still allow: the least of
// limit - working set over every level that has a limit.
std::optional<std::uint64_t> cgroup_room(const fs::path& root, bool v2) {
  const std::string controller = v2 ? "" : "memory";
  const auto mount = cgroup_mount(root, controller);
  const auto path = cgroup_path(root, controller);
  if (!mount || !path) return std::nullopt;
  // Inside a cgroup namespace the path is relative to the mount's root; outside, the
  // mount's root is a prefix of it.
  fs::path rel = path->lexically_relative(mount->root);
  if (rel.empty() || *rel.begin() == "..") rel = path->relative_path();
  fs::path dir = mount->point / rel;
  if (!fs::exists(dir)) dir = mount->point;  // a path this namespace cannot see
  const char* limit_file = v2 ? "memory.max" : "memory.limit_in_bytes";
  const char* usage_file = v2 ? "memory.current" : "memory.usage_in_bytes";
  const char* inactive_key = v2 ? "inactive_file " : "total_inactive_file ";
  std::optional<std::uint64_t> room;
  for (fs::path at = dir;; at = at.parent_path()) {
    const auto limit = number_in(at / limit_file);
    if (limit && *limit < kUnlimited) {
      const std::uint64_t usage = number_in(at / usage_file).value_or(0);
      const std::uint64_t inactive = number_in(at / "memory.stat", inactive_key).value_or(0);
      const std::uint64_t working = usage > inactive ? usage - inactive : 0;
      const std::uint64_t left = *limit > working ? *limit - working : 0;
      room = room ? std::min(*room, left) : left;
    }
    if (at.string().size() <= mount->point.string().size()) break;  // the mount's top, done
  }
  return room;
}

std::optional<std::uint64_t> soft_limit(int resource) {
  ::rlimit r{};
  if (::getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<std::uint64_t>(r.rlim_cur);
}

// Slurm's megabytes ("4096", or "4G" in some versions' output), in bytes. "0" (Slurm's --mem=0,
// the whole node) bounds nothing; text that is no such size is ignored, and `ignored` says so.
std::optional<std::uint64_t> slurm_megabytes(const std::optional<std::string>& given,
                                             const char* variable, std::string& ignored) {
  std::string text;
  if (given) {
    text = *given;
  } else if (const char* v = std::getenv(variable)) {
    text = v;
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  std::uint64_t scale = std::uint64_t{1} << 20;
  if (unit == "M" || unit == "m") unit = "";
  if (unit == "G" || unit == "g") scale <<= 10, unit = "";
  if (unit == "T" || unit == "t") scale <<= 20, unit = "";
  if (ec != std::errc{} || end == text.data() || !unit.empty() || n > (~std::uint64_t{0} / scale)) {
    ignored = std::string(variable) + "='" + text +
              "' is not a size in megabytes (such as 4096 or 4G): ignored";
    return std::nullopt;
  }
  if (n == 0) return std::nullopt;
  return n * scale;
}

}  // namespace

MemoryRoom memory_room(const MemorySources& s) {
  MemoryRoom out;
  auto consider = [&](std::optional<std::uint64_t> bytes, const char* bound) {
    if (!bytes) return;
    if (out.bound.empty() || *bytes < out.bytes) {
      out.bytes = *bytes;
      out.bound = bound;
    }
  };
  const fs::path meminfo = s.root / "proc/meminfo";
  const fs::path status = s.root / "proc/self/status";
  if (const auto kib = number_in(meminfo, "MemAvailable:")) consider(*kib * 1024, "MemAvailable");
  consider(cgroup_room(s.root, true), "the cgroup v2 limit");
  consider(cgroup_room(s.root, false), "the cgroup v1 limit");
  auto less = [](std::optional<std::uint64_t> limit,
                 std::optional<std::uint64_t> used_kib) -> std::optional<std::uint64_t> {
    if (!limit) return std::nullopt;
    const std::uint64_t used = used_kib.value_or(0) * 1024;
    return *limit > used ? *limit - used : 0;
  };
  // The address space limits count the stacks of threads still to start as well.
  auto reserved = [&](std::optional<std::uint64_t> room) -> std::optional<std::uint64_t> {
    if (!room) return room;
    return *room > s.reserve ? *room - s.reserve : 0;
  };
  consider(
      reserved(less(s.limit_as ? s.limit_as : soft_limit(RLIMIT_AS), number_in(status, "VmSize:"))),
      "RLIMIT_AS");
  consider(reserved(less(s.limit_data ? s.limit_data : soft_limit(RLIMIT_DATA),
                         number_in(status, "VmData:"))),
           "RLIMIT_DATA");
  const auto rss = number_in(status, "VmRSS:");
  const auto node = slurm_megabytes(s.slurm_mem_per_node, "SLURM_MEM_PER_NODE", out.ignored);
  const auto per_cpu = slurm_megabytes(s.slurm_mem_per_cpu, "SLURM_MEM_PER_CPU", out.ignored);
  if (node) {
    consider(less(node, rss), "SLURM_MEM_PER_NODE");
  } else if (per_cpu) {
    int cpus = s.slurm_cpus.value_or(0);
    if (cpus <= 0) cpus = positive_env_int("SLURM_CPUS_ON_NODE").value_or(default_threads());
    consider(less(*per_cpu * static_cast<std::uint64_t>(cpus), rss), "SLURM_MEM_PER_CPU");
  }
  return out;
}

bool keep_one_arena_under_address_limits() {
  if (!soft_limit(RLIMIT_AS) && !soft_limit(RLIMIT_DATA)) return false;
  return ::mallopt(M_ARENA_MAX, 1) == 1;
}

}  // namespace knightstour
