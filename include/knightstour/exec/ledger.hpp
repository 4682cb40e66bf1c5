#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace knightstour {

// What one finished prefix (work unit) produced.
struct PrefixResult {
  std::size_t id = 0;
  std::uint64_t tours = 0;            // directed tours that begin with the prefix
  std::uint64_t closed = 0;           // of these, the ones whose last square is next to the start
  std::uint64_t nodes = 0;            // nodes searched for it; 0 when derived from a mirror image
  double seconds = 0;                 // search time; 0 when derived
  std::vector<std::uint64_t> by_end;  // counting sinks: tours by last square, one per square
  std::string part;  // tour-file sinks: the part file holding its tours ("" when it has none)
  std::uint64_t part_rows = 0;   // and that file's tours, all its prefixes together
  std::uint64_t part_bytes = 0;  // and its size once finished (0: not known)
  // Counting with the tours' symmetries (count --up-to-symmetry; not journaled): tours that
  // a board symmetry maps onto their own reverse, and over the closed tours, the number of
  // board symmetries that map each one's cycle onto itself, summed. Both are the same for
  // a prefix and its mirror images.
  std::uint64_t self_reverse = 0;
  std::uint64_t cycle_stabilizers = 0;

  friend bool operator==(const PrefixResult&, const PrefixResult&) = default;
};

// Where finished prefixes become durable. A plain run keeps nothing (this base class); a run
// directory journals them (run/run_session.hpp). The driver never calls record()
// concurrently.
class Ledger {
 public:
  virtual ~Ledger() = default;
  // Prefixes finished by earlier sessions, indexed by prefix id (empty: none).
  virtual std::vector<std::optional<PrefixResult>> done_before() const { return {}; }
  virtual void record(std::span<const PrefixResult> results) { (void)results; }
  // Called once the searches are over, before the totals are made.
  virtual void sync() {}
};

}  // namespace knightstour
