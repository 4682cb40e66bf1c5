#include "frontier/store/compact_classes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <variant>
#include <vector>

#include "frontier/class/frontier_class.hpp"
#include "frontier/store/generation_store.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/stop_control.hpp"

namespace knightstour {
namespace {

template <int K>
struct Classes {
  std::vector<std::uint64_t> keys, groups;
  std::vector<WideCount<K>> counts;
};

template <int K>
CompactClasses encode(const Classes<K>& in) {
  CompactWriter<K> w;
  for (std::size_t i = 0; i < in.keys.size(); ++i) w.add(in.keys[i], in.groups[i], in.counts[i]);
  return w.finish();
}

// Decodes every block and checks the classes come back as they went in, in order.
template <int K>
void expect_round_trip(const Classes<K>& in, const CompactClasses& c) {
  ASSERT_EQ(c.classes, in.keys.size());
  ASSERT_EQ(c.blocks(),
            (in.keys.size() + CompactClasses::kBlockClasses - 1) / CompactClasses::kBlockClasses);
  ASSERT_EQ(c.bytes.size(), c.byte_size() + CompactClasses::kPadding);
  std::vector<std::uint64_t> keys(CompactClasses::kBlockClasses);
  std::vector<WideCount<K>> counts(CompactClasses::kBlockClasses);
  std::size_t at = 0;
  for (std::size_t b = 0; b < c.blocks(); ++b) {
    const std::size_t n = CompactClasses::decode_block<K>(
        c.bytes.data() + c.block_offset(b), c.block_bytes(b), keys.data(), counts.data());
    if (b + 1 < c.blocks()) {
      ASSERT_EQ(n, CompactClasses::kBlockClasses);
    }
    for (std::size_t i = 0; i < n; ++i, ++at) {
      ASSERT_EQ(keys[i], in.keys[at]) << "class " << at;
      ASSERT_EQ(counts[i], in.counts[at]) << "class " << at;
    }
  }
  EXPECT_EQ(at, in.keys.size());
}

// Counts of every size a count of K limbs can take: 0, 1, each power of two and its
// neighbours (7-bit and limb boundaries among them), all ones.
template <int K>
std::vector<WideCount<K>> counts_of_every_size() {
  std::vector<WideCount<K>> out;
  out.push_back(WideCount<K>{});
  for (int bit = 0; bit < 64 * K; ++bit) {
    WideCount<K> c;
    c.limb[static_cast<std::size_t>(bit / 64)] = std::uint64_t{1} << (bit % 64);
    out.push_back(c);
    WideCount<K> below = c;  // 2^bit - 1: every bit under it
    WideCount<K> one;
    one.limb[0] = 1;
    below.subtract(one);
    out.push_back(below);
    WideCount<K> above = c;
    above.add(one);
    out.push_back(above);
  }
  WideCount<K> all;
  for (auto& l : all.limb) l = ~std::uint64_t{0};
  out.push_back(all);
  return out;
}

template <int K>
void round_trip_every_count_size() {
  const auto sizes = counts_of_every_size<K>();
  Classes<K> in;
  std::mt19937_64 rng(K);
  for (std::size_t i = 0; i < 3000; ++i) {
    in.keys.push_back(rng());
    in.groups.push_back(i / 7);  // runs of 7 of one group, keys unrelated to it
    in.counts.push_back(sizes[i % sizes.size()]);
  }
  expect_round_trip(in, encode(in));
}

TEST(CompactClasses, EveryCountSizeRoundTripsAtEveryWidth) {
  round_trip_every_count_size<1>();
  round_trip_every_count_size<2>();
  round_trip_every_count_size<4>();
  round_trip_every_count_size<8>();
  round_trip_every_count_size<kMaxLimbs>();
}

// The branch-free one- and two-byte forms (successor blocks use them) write what put_count
// writes and read what it wrote, for every count they take.
TEST(CompactClasses, ShortCountFormsAreThoseOfPutCount) {
  for (std::uint64_t c = 0; c < compact_detail::kTwoByteCounts; ++c) {
    std::uint8_t full[16] = {};
    std::uint8_t fast[16] = {};
    const std::size_t n =
        static_cast<std::size_t>(compact_detail::put_count<1>(full, WideCount<1>{{c}}) - full);
    ASSERT_EQ(compact_detail::put_short_count(fast, c), n) << c;
    ASSERT_EQ(std::memcmp(full, fast, n), 0) << c;
    ASSERT_TRUE(compact_detail::is_short_count(full[0])) << c;
    const std::uint8_t* p = full;
    ASSERT_EQ(compact_detail::get_short_count(p), c);
    ASSERT_EQ(p, full + n);
  }
  std::uint8_t wide[16] = {};
  compact_detail::put_count<1>(wide, WideCount<1>{{compact_detail::kTwoByteCounts}});
  EXPECT_FALSE(compact_detail::is_short_count(wide[0]));
}

// A part written with narrow counts reads back with wider ones: the bytes do not depend on
// the limbs (so widening a generation copies nothing). A count too wide for the reader's
// limbs is refused, never cut.
TEST(CompactClasses, NarrowBytesReadWideAndTooWideIsRefused) {
  Classes<2> in;
  for (std::uint64_t i = 0; i < 100; ++i) {
    in.keys.push_back(i * 977);
    in.groups.push_back(0);
    in.counts.push_back(WideCount<2>{{~i, i}});
  }
  const CompactClasses c = encode(in);
  std::vector<std::uint64_t> keys(CompactClasses::kBlockClasses);
  std::vector<WideCount<4>> wide(CompactClasses::kBlockClasses);
  ASSERT_EQ(
      CompactClasses::decode_block<4>(c.bytes.data(), c.block_bytes(0), keys.data(), wide.data()),
      100u);
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(wide[i].limb[0], ~std::uint64_t{i});
    EXPECT_EQ(wide[i].limb[1], i);
    EXPECT_EQ(wide[i].limb[2], 0u);
  }
  std::vector<WideCount<1>> narrow(CompactClasses::kBlockClasses);
  EXPECT_THROW(
      CompactClasses::decode_block<1>(c.bytes.data(), c.block_bytes(0), keys.data(), narrow.data()),
      std::runtime_error);
}

// Keys that differ from their group in any bits, up to all 64, and empty masks (every key
// its group's value), across block boundaries and runs cut by them.
TEST(CompactClasses, KeysOfAnyMaskRoundTrip) {
  std::mt19937_64 rng(5);
  auto sparse = [&rng] {  // about a quarter of the bits
    const std::uint64_t a = rng();
    return a & rng();
  };
  Classes<1> in;
  for (std::size_t run = 0; run < 300; ++run) {
    const std::uint64_t group = rng();
    const int kind = static_cast<int>(run % 4);
    const std::uint64_t mask = kind == 0   ? 0
                               : kind == 1 ? ~std::uint64_t{0}
                               : kind == 2 ? sparse()
                                           : std::uint64_t{1} << (run % 64);
    const std::size_t n = 1 + rng() % 40;
    for (std::size_t i = 0; i < n; ++i) {
      in.keys.push_back(group ^ (rng() & mask));
      in.groups.push_back(group);
      in.counts.push_back(WideCount<1>{{rng() >> (rng() % 64)}});
    }
  }
  expect_round_trip(in, encode(in));
}

// Bytes that are not a block are refused with an error, never read past their end.
TEST(CompactClasses, MalformedBlocksAreRefused) {
  Classes<1> in;
  for (std::uint64_t i = 0; i < 50; ++i) {
    in.keys.push_back(i << 20);
    in.groups.push_back(0);
    in.counts.push_back(WideCount<1>{{300 + i}});
  }
  const CompactClasses c = encode(in);
  std::vector<std::uint64_t> keys(CompactClasses::kBlockClasses);
  std::vector<WideCount<1>> counts(CompactClasses::kBlockClasses);
  const std::size_t n = c.block_bytes(0);
  for (std::size_t cut = 1; cut < n; ++cut) {  // every proper prefix
    std::vector<std::uint8_t> bytes(c.bytes.begin(), c.bytes.begin() + static_cast<long>(cut));
    bytes.resize(cut + CompactClasses::kPadding);
    EXPECT_THROW(CompactClasses::decode_block<1>(bytes.data(), cut, keys.data(), counts.data()),
                 std::runtime_error)
        << "cut at " << cut;
  }
  std::vector<std::uint8_t> zero(8 + CompactClasses::kPadding, 0);  // a run of 0 classes
  EXPECT_THROW(CompactClasses::decode_block<1>(zero.data(), 8, keys.data(), counts.data()),
               std::runtime_error);
}

// On a real generation, grouped by type pattern as the engine writes it, a class takes a
// few bytes: 7x8 closed at its peak (step 40, 10.5 million classes) takes 3.8 bytes a class
// with the index (16 before compact classes); every class reads back.
TEST(CompactClasses, ARealGenerationTakesAFewBytesAClass) {
  const Sweep sweep({7, 8});
  FrontierOptions options;
  options.threads = 2;
  options.until_step = 40;
  StopControl stop(Caps{});
  const FrontierResult r = run_frontier(sweep, FrontierTarget{true, std::nullopt}, options, stop);
  ASSERT_TRUE(r.paused.has_value());
  const auto& g = std::get<Generation<1>>(r.paused->classes);
  ASSERT_EQ(g.size(), 10540443u);
  const double per_class = static_cast<double>(g.memory_bytes()) / static_cast<double>(g.size());
  EXPECT_LT(per_class, 4.5);
  EXPECT_GT(per_class, 2.0);  // not a miscount of the bytes
  std::uint64_t seen = 0;
  g.for_each_class(
      [&](std::uint64_t, const WideCount<1>& count) { seen += count.is_zero() ? 0 : 1; });
  EXPECT_EQ(seen, g.size());
}

}  // namespace
}  // namespace knightstour
