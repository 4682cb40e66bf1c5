#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "frontier/store/generation_store.hpp"

namespace knightstour::test {

// A class as tests compare it.
template <int K>
using Class = std::pair<std::uint64_t, WideCount<K>>;

// Every class of g, part after part, in order.
template <int K>
std::vector<Class<K>> classes_of(const Generation<K>& g) {
  std::vector<Class<K>> out;
  g.for_each_class(
      [&](std::uint64_t key, const WideCount<K>& count) { out.emplace_back(key, count); });
  return out;
}

// The classes of a part, in order, with counts of K limbs.
template <int K>
std::vector<Class<K>> classes_of_part(const ClassPart& part) {
  std::vector<Class<K>> out;
  ClassBuffer<K> buffer;
  part.for_each_chunk<K>(0, part.size(), buffer,
                         [&](const std::uint64_t* keys, const WideCount<K>* counts, std::size_t n) {
                           for (std::size_t i = 0; i < n; ++i) out.emplace_back(keys[i], counts[i]);
                         });
  return out;
}

// The classes of part p of g, in order.
template <int K>
std::vector<Class<K>> classes_of(const Generation<K>& g, std::size_t p) {
  return classes_of_part<K>(g.parts[p]);
}

// A generation of `parts` parts holding classes i = 0 .. n-1 (key(i), count(i)), class i
// in part part(i), in order.
template <int K, class Key, class Count, class Part>
Generation<K> generation_of(std::size_t parts, std::uint64_t n, Key key, Count count, Part part,
                            int slots = 0) {
  std::vector<PartWriter<K>> writers(parts, PartWriter<K>(slots));
  for (std::uint64_t i = 0; i < n; ++i) writers[part(i)].add(key(i), count(i));
  Generation<K> g;
  for (auto& w : writers) g.parts.push_back(w.finish());
  return g;
}

}  // namespace knightstour::test
