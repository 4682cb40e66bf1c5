#pragma once

#include <cstdint>
#include <string>

#include "knightstour/base/errors.hpp"

namespace knightstour {

// How the enumerator deals a sharded job's prefixes to shards (the frontier method deals its
// units of end pairs by unit number, whatever the rule).
enum class ShardRule : std::uint8_t {
  // Whole symmetry orbits: the k-th orbit (in order of its lowest id) goes to shard k mod count,
  // so a prefix travels with its mirror images and no shard searches what another derives.
  orbits,
  // Prefix ids: {id : id mod count == index}. Runs written before format 2 used it; each shard
  // then searches a representative for every mirror image it holds (up to |group| times the work).
  ids,
};

// One shard of a job, of either method: which of `count` parts (Plan::in_shard for the
// enumerator, unit_in_shard for the frontier method's units of end pairs).
struct Shard {
  int index = 0;
  int count = 1;
  ShardRule rule = ShardRule::orbits;

  bool sharded() const { return count > 1; }
  bool exists() const { return count >= 1 && index >= 0 && index < count; }
  friend bool operator==(const Shard&, const Shard&) = default;
};

// The one check of a shard a user asked for: throws UsageError unless it exists.
inline void check_shard(const Shard& shard) {
  if (shard.exists()) return;
  throw UsageError("$shard_index " + std::to_string(shard.index) +
                   " must be less than $shard_count " + std::to_string(shard.count));
}

}  // namespace knightstour
