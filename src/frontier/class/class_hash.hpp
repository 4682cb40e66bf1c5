#pragma once

#include <cstddef>
#include <cstdint>

#include "frontier/class/frontier_class.hpp"

namespace knightstour {

// The murmur3 finalizer: spreads a class key over 64 bits. Its low bits place a class in its
// part's aggregation table.
inline std::uint64_t class_hash(std::uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key;
}

// The hash that routes a class of `slots` slots: its top bits choose the class's part
// (part_at), bits 16 to 47 its rank (owner_rank). It hashes the type pattern, not the whole
// key, so that a part holds every class of its patterns: a thread expanding the part then
// plans each pattern's choices once for a dozen classes (choice_plans.hpp; 7x8 closed's
// kernel 58 -> 38 ns a class, docs/speed.md (choice-plans.md)). Equal keys have
// equal patterns, so the successors that aggregate into one class still meet in one part.
inline std::uint64_t route_hash(std::uint64_t key, int slots) {
  return class_hash(type_pattern(key, slots));
}

// The top `bits` bits (1 to 63) of x times 2^64 / phi: Fibonacci hashing, one multiply, and
// those bits depend on every bit of x. For tables inside one part, where a class's slot
// needs no more (aggregation_table.hpp).
inline std::size_t fibonacci_hash(std::uint64_t x, int bits) {
  return static_cast<std::size_t>((x * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

// x times 2^64 / phi (odd, so a bijection): fibonacci_hash's order, all 64 bits of it. A
// sliced step merges its partial parts in it (partial_merge.hpp).
inline std::uint64_t merge_hash(std::uint64_t x) { return x * 0x9e3779b97f4a7c15ull; }

// One of 2^bits buckets for a type pattern, by Fibonacci hashing: its top bits do not follow
// route_hash's, so the patterns of one part spread over all buckets. For tables that a
// part's patterns share: a thread's plans (choice_plans.hpp), the buckets that group a
// part's classes (aggregation_table.hpp).
inline std::size_t pattern_bucket(std::uint64_t pattern, int bits) {
  return fibonacci_hash(pattern, bits);
}

}  // namespace knightstour
