#include "knightstour/base/cpus.hpp"

#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace knightstour {

int available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return 1;
}

std::optional<int> positive_env_int(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (end == v || *end != '\0' || n <= 0 || n >= 1000000) return std::nullopt;
  return static_cast<int>(n);
}

int default_threads() {
  const int cpus = available_cpus();
  // Slurm without task affinity (no cgroup cpuset, no --cpu-bind) leaves the whole machine in
  // the mask; what the job booked is --cpus-per-task.
  if (const auto booked = positive_env_int("SLURM_CPUS_PER_TASK")) return std::min(*booked, cpus);
  if (const char* text = std::getenv("SLURM_CPUS_PER_TASK"); text != nullptr) {
    // Said once, as a SLURM_MEM_* that is no size is: the job's CPUs are then the mask's.
    static const bool warned = [&] {
      spdlog::warn("SLURM_CPUS_PER_TASK='{}' is not a number of CPUs (1 or more): ignored", text);
      return true;
    }();
    (void)warned;
  }
  return cpus;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) return "";
      const auto begin = line.find_first_not_of(' ', colon + 1);
      return begin == std::string::npos ? "" : line.substr(begin);
    }
  }
  return "";
}

double process_cpu_seconds() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string slurm_job() {
  const char* array = std::getenv("SLURM_ARRAY_JOB_ID");
  const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
  if (array && task && *array && *task) return std::string(array) + "_" + task;
  const char* job = std::getenv("SLURM_JOB_ID");
  return job ? job : "";
}

}  // namespace knightstour
