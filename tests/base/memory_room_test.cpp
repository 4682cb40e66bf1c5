#include "knightstour/base/memory_room.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace knightstour {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// A fake root: /proc files and cgroup trees, as a container or a Slurm node lays them out.
class FakeRoot {
 public:
  FakeRoot() : root_(fs::temp_directory_path() / ("kt-memory-room-" + std::to_string(::getpid()))) {
    fs::remove_all(root_);
    file("proc/meminfo", "MemTotal:       32000000 kB\nMemAvailable:   16777216 kB\n");  // 16 GiB
    file("proc/self/status",
         "VmSize:\t  1048576 kB\nVmRSS:\t   102400 kB\nVmData:\t   524288 kB\n");
  }
  ~FakeRoot() { fs::remove_all(root_); }
  void file(const std::string& path, const std::string& text) {
    fs::create_directories((root_ / path).parent_path());
    std::ofstream(root_ / path) << text;
  }
  MemorySources sources() const {
    MemorySources s;
    s.root = root_;
    s.slurm_mem_per_node = "";
    s.slurm_mem_per_cpu = "";
    s.limit_as = ~std::uint64_t{0} >> 1;
    s.limit_data = ~std::uint64_t{0} >> 1;
    return s;
  }

 private:
  fs::path root_;
};

TEST(MemoryRoom, MemAvailableAloneWhenNothingLimits) {
  FakeRoot f;
  const MemoryRoom room = memory_room(f.sources());
  EXPECT_EQ(room.bytes, 16 * kGiB);
  EXPECT_EQ(room.bound, "MemAvailable");
}

// cgroup v1, as these machines and many Slurm nodes mount it: the limit less the working set
// (usage less inactive file pages) of this process's memory cgroup.
TEST(MemoryRoom, CgroupV1LimitBounds) {
  FakeRoot f;
  f.file("proc/self/mountinfo",
         "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
         "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n");
  f.file("proc/self/cgroup", "5:cpu:/\n4:memory:/slurm/uid_0/job_7\n0::/\n");
  const std::string dir = "sys/fs/cgroup/memory/slurm/uid_0/job_7/";
  f.file(dir + "memory.limit_in_bytes", std::to_string(kGiB) + "\n");
  f.file(dir + "memory.usage_in_bytes", std::to_string(300 * kMiB) + "\n");
  f.file(dir + "memory.stat", "cache 1\ntotal_inactive_file " + std::to_string(100 * kMiB) + "\n");
  f.file("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");  // no limit
  const MemoryRoom room = memory_room(f.sources());
  EXPECT_EQ(room.bytes, kGiB - 200 * kMiB);
  EXPECT_EQ(room.bound, "the cgroup v1 limit");
}

// A parent cgroup's smaller limit bounds the child's (hierarchical limits).
TEST(MemoryRoom, CgroupV1ParentLimitBounds) {
  FakeRoot f;
  f.file("proc/self/mountinfo",
         "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n");
  f.file("proc/self/cgroup", "4:memory:/job/step\n");
  f.file("sys/fs/cgroup/memory/job/step/memory.limit_in_bytes", std::to_string(8 * kGiB));
  f.file("sys/fs/cgroup/memory/job/memory.limit_in_bytes", std::to_string(2 * kGiB));
  f.file("sys/fs/cgroup/memory/job/memory.usage_in_bytes", std::to_string(kGiB));
  EXPECT_EQ(memory_room(f.sources()).bytes, kGiB);
}

// cgroup v2 inside a cgroup namespace: /proc/self/cgroup says "/" and the mount's root is
// the container's own cgroup.
TEST(MemoryRoom, CgroupV2LimitBounds) {
  FakeRoot f;
  f.file("proc/self/mountinfo",
         "41 31 0:38 /kubepods/pod1 /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n");
  f.file("proc/self/cgroup", "0::/\n");
  f.file("sys/fs/cgroup/memory.max", std::to_string(512 * kMiB) + "\n");
  f.file("sys/fs/cgroup/memory.current", std::to_string(64 * kMiB) + "\n");
  f.file("sys/fs/cgroup/memory.stat", "anon 1\ninactive_file " + std::to_string(32 * kMiB) + "\n");
  const MemoryRoom room = memory_room(f.sources());
  EXPECT_EQ(room.bytes, 480 * kMiB);
  EXPECT_EQ(room.bound, "the cgroup v2 limit");
}

TEST(MemoryRoom, CgroupV2MaxMeansNoLimit) {
  FakeRoot f;
  f.file("proc/self/mountinfo", "41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  f.file("proc/self/cgroup", "0::/user.slice\n");
  f.file("sys/fs/cgroup/user.slice/memory.max", "max\n");
  f.file("sys/fs/cgroup/user.slice/memory.current", "1000\n");
  EXPECT_EQ(memory_room(f.sources()).bound, "MemAvailable");
}

TEST(MemoryRoom, RlimitsBound) {
  FakeRoot f;
  MemorySources s = f.sources();
  s.limit_as = 3 * kGiB;  // VmSize is 1 GiB
  EXPECT_EQ(memory_room(s).bytes, 2 * kGiB);
  EXPECT_EQ(memory_room(s).bound, "RLIMIT_AS");
  s.limit_data = kGiB;  // VmData is 512 MiB
  EXPECT_EQ(memory_room(s).bytes, 512 * kMiB);
  EXPECT_EQ(memory_room(s).bound, "RLIMIT_DATA");
}

TEST(MemoryRoom, SlurmAllocationBounds) {
  FakeRoot f;
  MemorySources s = f.sources();
  s.slurm_mem_per_node = "2048";  // MB; VmRSS is 100 MiB
  EXPECT_EQ(memory_room(s).bytes, 2 * kGiB - 100 * kMiB);
  EXPECT_EQ(memory_room(s).bound, "SLURM_MEM_PER_NODE");
  s.slurm_mem_per_node = "";
  s.slurm_mem_per_cpu = "1G";
  s.slurm_cpus = 3;
  EXPECT_EQ(memory_room(s).bytes, 3 * kGiB - 100 * kMiB);
  EXPECT_EQ(memory_room(s).bound, "SLURM_MEM_PER_CPU");
}

// The stacks of the threads a count starts come out of an address-space limit too.
TEST(MemoryRoom, ThreadStacksComeOffTheAddressLimits) {
  FakeRoot f;
  MemorySources s = f.sources();
  s.limit_as = 3 * kGiB;  // VmSize is 1 GiB
  s.reserve = 24 * kMiB;
  EXPECT_EQ(memory_room(s).bytes, 2 * kGiB - 24 * kMiB);
  s.limit_as = kGiB + 10 * kMiB;  // less room than the stacks: none, and known to be none
  const MemoryRoom none = memory_room(s);
  EXPECT_EQ(none.bytes, 0u);
  EXPECT_TRUE(none.known());
  EXPECT_EQ(none.bound, "RLIMIT_AS");
}

// An allocation smaller than what the process holds leaves nothing, and says so (it read as
// "unknown", and the budget became 4 GiB).
TEST(MemoryRoom, ASlurmAllocationSmallerThanTheProcessLeavesNothing) {
  FakeRoot f;
  MemorySources s = f.sources();
  s.slurm_mem_per_node = "3";  // MB; VmRSS is 100 MiB
  const MemoryRoom room = memory_room(s);
  EXPECT_EQ(room.bytes, 0u);
  EXPECT_TRUE(room.known());
  EXPECT_EQ(room.bound, "SLURM_MEM_PER_NODE");
}

// What is no size is ignored aloud; 0 (Slurm's --mem=0, the whole node) bounds nothing.
TEST(MemoryRoom, SlurmValuesThatAreNoSizeAreIgnoredAloud) {
  FakeRoot f;
  for (const std::string text : {"lots", "-5", "4X", "12 ", "99999999999999999999"}) {
    MemorySources s = f.sources();
    s.slurm_mem_per_node = text;
    const MemoryRoom room = memory_room(s);
    EXPECT_EQ(room.bound, "MemAvailable") << text;
    EXPECT_NE(room.ignored.find("SLURM_MEM_PER_NODE='" + text + "' is not a size in megabytes"),
              std::string::npos)
        << room.ignored;
  }
  MemorySources s = f.sources();
  s.slurm_mem_per_node = "0";
  EXPECT_EQ(memory_room(s).bound, "MemAvailable");
  EXPECT_TRUE(memory_room(s).ignored.empty());
  s.slurm_mem_per_node = "2G";
  EXPECT_EQ(memory_room(s).bytes, 2 * kGiB - 100 * kMiB);
}

// This process, as it runs: whatever bounds it, some room is known.
TEST(MemoryRoom, ThisProcessHasRoom) { EXPECT_GT(memory_room().bytes, 0u); }

}  // namespace
}  // namespace knightstour
