#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace knightstour {

// The processes that count one frontier sweep together (MPI ranks; src/cli/mpi_world.cpp
// gives the MPI implementation). Every rank runs the same job; the classes of each generation
// are split between them by hash (owner_rank), and a step sends each successor to the rank
// that owns it. Every call here is collective: all ranks make the same calls in the same
// order, which is why every decision that changes the control flow of a step (parts, passes,
// rounds, stop, overflow, out of memory) is taken from values the ranks agreed on here.
// Calls come per step and per round of an exchange (a few per million classes), never per
// class: a virtual call there costs nothing.
class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int ranks_on_this_node() const = 0;  // they share its memory

  virtual std::uint64_t max(std::uint64_t value) = 0;
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  virtual std::uint32_t any_bits(std::uint32_t bits) = 0;  // bitwise or over the ranks
  // Every rank's `bytes` (the same length on every rank), in rank order.
  virtual std::vector<std::byte> all_gather(const std::vector<std::byte>& bytes) = 0;
  // Sends bytes [offset[d], offset[d + 1]) of `send` to rank d (offset has size() + 1
  // entries) and returns what every rank sent to this one, in rank order.
  virtual std::vector<std::byte> all_to_all(const std::vector<std::byte>& send,
                                            const std::vector<std::uint64_t>& offset) = 0;
};

// `ranks` when it holds more than one rank, else nullptr: a single rank counts as a process
// alone, with no collective call at all.
inline Ranks* several_ranks(Ranks* ranks) {
  return ranks != nullptr && ranks->size() > 1 ? ranks : nullptr;
}

// The rank that owns a class, from its route_hash (class_hash.hpp): bits 16 to 47, scaled to
// the ranks. The top bits choose the class's part on its rank; the owner does not take them,
// so that every rank's parts stay evenly filled.
inline int owner_rank(std::uint64_t hash, int ranks) {
  return static_cast<int>(((hash >> 16) & 0xffffffffu) * static_cast<std::uint64_t>(ranks) >> 32);
}

}  // namespace knightstour
