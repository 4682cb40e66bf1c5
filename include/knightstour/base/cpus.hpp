#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace knightstour {

// CPUs in this process's affinity mask (as Slurm or taskset restrict it), at least 1.
int available_cpus();

// The environment variable `name` as a whole number from 1 to 999,999 (Slurm's CPU counts);
// nothing when it is unset or anything else.
std::optional<int> positive_env_int(const char* name);

// Threads a run uses when not told: SLURM_CPUS_PER_TASK when set (at most available_cpus()),
// else available_cpus().
int default_threads();

// CPU seconds (user + system) this process has used so far, all threads together.
double process_cpu_seconds();

// The Slurm job this process runs in: "ARRAYJOB_TASK" for an array task, else the job id;
// "" outside Slurm.
std::string slurm_job();

// This machine's host name and CPU model name (/proc/cpuinfo); "" when unknown.
std::string host_name();
std::string cpu_model();

}  // namespace knightstour
