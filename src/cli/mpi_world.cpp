#include "mpi_world.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "knightstour/base/errors.hpp"

#ifdef KNIGHTSTOUR_WITH_MPI
#include <mpi.h>
#endif

namespace knightstour::cli {

namespace {

// A rank count from the environment (at least 1).
int count_in(const char* text) {
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  return end != text && n > 1 ? static_cast<int>(std::min<long>(n, 1 << 20)) : 1;
}

// Ranks the launcher says it started (0: no launcher). Open MPI's mpirun sets
// OMPI_COMM_WORLD_SIZE; srun --mpi=pmix and other PMIx or PMI launchers set PMIX_RANK or
// PMI_SIZE.
int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    if (const char* v = std::getenv(name)) return count_in(v);
  }
  if (std::getenv("PMIX_RANK") != nullptr) {  // srun --mpi=pmix: the size comes from MPI
    const char* tasks = std::getenv("SLURM_NTASKS");
    return tasks != nullptr ? count_in(tasks) : 1;
  }
  return 0;
}

#ifdef KNIGHTSTOUR_WITH_MPI

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI call failed: ") + what);
}

int as_int(std::uint64_t n) {
  if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("an MPI message would pass 2 GiB");
  return static_cast<int>(n);
}

class MpiRanks final : public Ranks {
 public:
  MpiRanks() {
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
    MPI_Comm node;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    check(MPI_Comm_size(node, &on_node_), "MPI_Comm_size");
    MPI_Comm_free(&node);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int ranks_on_this_node() const override { return on_node_; }

  std::uint64_t max(std::uint64_t value) override { return reduce(value, MPI_MAX); }
  std::uint64_t sum(std::uint64_t value) override { return reduce(value, MPI_SUM); }
  std::uint32_t any_bits(std::uint32_t bits) override {
    std::uint32_t out = 0;
    check(MPI_Allreduce(&bits, &out, 1, MPI_UINT32_T, MPI_BOR, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
  }
  std::vector<std::byte> all_gather(const std::vector<std::byte>& bytes) override {
    std::vector<std::byte> out(bytes.size() * static_cast<std::size_t>(size_));
    const int n = as_int(bytes.size());
    check(MPI_Allgather(bytes.data(), n, MPI_BYTE, out.data(), n, MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Allgather");
    return out;
  }
  std::vector<std::byte> all_to_all(const std::vector<std::byte>& send,
                                    const std::vector<std::uint64_t>& offset) override {
    const auto n = static_cast<std::size_t>(size_);
    std::vector<std::uint64_t> sending(n), receiving(n);
    for (std::size_t d = 0; d < n; ++d) sending[d] = offset[d + 1] - offset[d];
    check(MPI_Alltoall(sending.data(), 1, MPI_UINT64_T, receiving.data(), 1, MPI_UINT64_T,
                       MPI_COMM_WORLD),
          "MPI_Alltoall");
    std::vector<int> send_counts(n), send_at(n), receive_counts(n), receive_at(n);
    std::uint64_t total = 0;
    for (std::size_t d = 0; d < n; ++d) {
      send_counts[d] = as_int(sending[d]);
      send_at[d] = as_int(offset[d]);
      receive_counts[d] = as_int(receiving[d]);
      receive_at[d] = as_int(total);
      total += receiving[d];
    }
    std::vector<std::byte> out(total);
    check(MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, out.data(),
                        receive_counts.data(), receive_at.data(), MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Alltoallv");
    return out;
  }

 private:
  std::uint64_t reduce(std::uint64_t value, MPI_Op op) {
    std::uint64_t out = 0;
    check(MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, op, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
  }
  int rank_ = 0;
  int size_ = 1;
  int on_node_ = 1;
};

std::unique_ptr<MpiRanks> world;

#endif

}  // namespace

Ranks* join_mpi(int& argc, char**& argv) {
  const int launched = launched_ranks();
  if (launched == 0) return nullptr;
#ifdef KNIGHTSTOUR_WITH_MPI
  // MPI is called from one thread at a time (the one running the sweep), never from the
  // threads that expand classes.
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  world = std::make_unique<MpiRanks>();
  if (world->rank() != 0 && std::freopen("/dev/null", "w", stdout) == nullptr) {
    throw std::runtime_error("cannot silence stdout on rank " + std::to_string(world->rank()));
  }
  return world->size() > 1 ? world.get() : nullptr;
#else
  (void)argc;
  (void)argv;
  if (launched > 1) {
    throw UsageError(
        "this knightstour was built without MPI, so its " + std::to_string(launched) +
        " ranks would each count the whole job; rebuild with MPI (scripts/setup installs "
        "libopenmpi-dev) or start one process");
  }
  return nullptr;
#endif
}

Ranks* mpi_ranks() {
#ifdef KNIGHTSTOUR_WITH_MPI
  return world && world->size() > 1 ? world.get() : nullptr;
#else
  return nullptr;
#endif
}

int mpi_rank() {
#ifdef KNIGHTSTOUR_WITH_MPI
  return world ? world->rank() : 0;
#else
  return 0;
#endif
}

void leave_mpi() {
#ifdef KNIGHTSTOUR_WITH_MPI
  if (world) {
    world.reset();
    MPI_Finalize();
  }
#endif
}

void abort_mpi(int code) {
#ifdef KNIGHTSTOUR_WITH_MPI
  if (world && world->size() > 1) MPI_Abort(MPI_COMM_WORLD, code);
#else
  (void)code;
#endif
}

}  // namespace knightstour::cli
