#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace knightstour {

// Where the memory limits of this process are read from. Tests point `root` at a fake tree
// holding proc/self/{cgroup,mountinfo,status}, proc/meminfo and the cgroup files the
// mountinfo names; the rest comes from the process unless given.
struct MemorySources {
  std::filesystem::path root = "/";
  // Slurm's allocation (megabytes, as Slurm sets them); nothing: read the environment.
  std::optional<std::string> slurm_mem_per_node;
  std::optional<std::string> slurm_mem_per_cpu;
  std::optional<int> slurm_cpus;  // CPUs the job holds on this node, for SLURM_MEM_PER_CPU
  // RLIMIT_AS and RLIMIT_DATA; nothing: read from the process (getrlimit).
  std::optional<std::uint64_t> limit_as;
  std::optional<std::uint64_t> limit_data;
  // Address space the process will still reserve outside what it allocates (the stacks of
  // the threads it is about to start): taken off what RLIMIT_AS and RLIMIT_DATA leave.
  std::uint64_t reserve = 0;
};

// The memory this process can still take, and what bounds it.
struct MemoryRoom {
  std::uint64_t bytes = 0;
  std::string bound;  // e.g. "the cgroup v1 limit", "MemAvailable"; empty: nothing is known
  bool known() const { return !bound.empty(); }
  // A limit that could not be read ("SLURM_MEM_PER_NODE='lots' is not ..."), for a warning.
  std::string ignored;
};

// The smallest of: the kernel's MemAvailable; what every cgroup (v1 and v2) above this
// process still allows (its limit less its working set: usage less inactive file pages,
// which the kernel reclaims before it kills); RLIMIT_AS less the address space in use and
// RLIMIT_DATA less the data segment; Slurm's SLURM_MEM_PER_NODE, or SLURM_MEM_PER_CPU times
// the job's CPUs on this node, less this process's resident set.
MemoryRoom memory_room(const MemorySources& sources = {});

// Under an address-space limit (RLIMIT_AS or RLIMIT_DATA) the allocator keeps a single arena:
// glibc gives each thread that allocates an arena of its own, reserving 64 MiB of address
// space apiece (a 2-thread count reserved 234 MiB to use 74), which a limit such as
// `ulimit -v` counts although no page of it is touched. Call before threads start; returns
// whether it did anything. Per-node work allocates nothing, so one arena costs no speed.
bool keep_one_arena_under_address_limits();

}  // namespace knightstour
