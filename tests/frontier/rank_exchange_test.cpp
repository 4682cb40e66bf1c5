// What ranks exchange and agree on (rank_exchange.hpp), with the ranks as threads of this
// process: every successor reaches the rank that owns it, in its own part, and sums over the
// ranks are the same on every rank.
#include "frontier/step/rank_exchange.hpp"

#include <gtest/gtest.h>

#include <barrier>
#include <cstring>
#include <functional>
#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "frontier/store/memory_budget.hpp"

namespace knightstour::frontier_detail {
namespace {

// What the ranks of one process post for a collective call, between two barriers.
struct Hub {
  explicit Hub(int n)
      : size(n),
        sync(n),
        posted(static_cast<std::size_t>(n)),
        offsets(static_cast<std::size_t>(n)) {}
  int size;
  std::barrier<> sync;
  std::vector<std::vector<std::byte>> posted;
  std::vector<std::vector<std::uint64_t>> offsets;
};

// One rank of a Hub: every call blocks until every rank has made it, as MPI's collectives do.
class ThreadRank final : public Ranks {
 public:
  ThreadRank(Hub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return hub_.size; }
  int ranks_on_this_node() const override { return hub_.size; }
  std::uint64_t max(std::uint64_t value) override {
    std::uint64_t m = 0;
    for (std::uint64_t v : gather_values(value)) m = std::max(m, v);
    return m;
  }
  std::uint64_t sum(std::uint64_t value) override {
    std::uint64_t s = 0;
    for (std::uint64_t v : gather_values(value)) s += v;
    return s;
  }
  std::uint32_t any_bits(std::uint32_t bits) override {
    std::uint32_t b = 0;
    for (std::uint64_t v : gather_values(bits)) b |= static_cast<std::uint32_t>(v);
    return b;
  }
  std::vector<std::byte> all_gather(const std::vector<std::byte>& bytes) override {
    hub_.posted[static_cast<std::size_t>(rank_)] = bytes;
    hub_.sync.arrive_and_wait();
    std::vector<std::byte> all;
    for (const auto& p : hub_.posted) all.insert(all.end(), p.begin(), p.end());
    hub_.sync.arrive_and_wait();  // nobody posts again before everyone has read
    return all;
  }
  std::vector<std::byte> all_to_all(const std::vector<std::byte>& send,
                                    const std::vector<std::uint64_t>& offset) override {
    hub_.posted[static_cast<std::size_t>(rank_)] = send;
    hub_.offsets[static_cast<std::size_t>(rank_)] = offset;
    hub_.sync.arrive_and_wait();
    std::vector<std::byte> received;
    const auto me = static_cast<std::size_t>(rank_);
    for (std::size_t d = 0; d < hub_.posted.size(); ++d) {
      const auto& from = hub_.posted[d];
      const auto& at = hub_.offsets[d];
      received.insert(received.end(), from.begin() + static_cast<std::ptrdiff_t>(at[me]),
                      from.begin() + static_cast<std::ptrdiff_t>(at[me + 1]));
    }
    hub_.sync.arrive_and_wait();
    return received;
  }

 private:
  std::vector<std::uint64_t> gather_values(std::uint64_t value) {
    std::vector<std::byte> bytes(sizeof(value));
    std::memcpy(bytes.data(), &value, sizeof(value));
    const std::vector<std::byte> all = all_gather(bytes);
    std::vector<std::uint64_t> values(all.size() / sizeof(value));
    std::memcpy(values.data(), all.data(), all.size());
    return values;
  }

  Hub& hub_;
  int rank_;
};

// Runs body(ranks) on n ranks, each a thread.
void on_ranks(int n, const std::function<void(ThreadRank&)>& body) {
  Hub hub(n);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&hub, &body, r] {
      ThreadRank rank(hub, r);
      body(rank);
    });
  }
  for (auto& t : threads) t.join();
}

TEST(SumOverRanks, IsTheSameTotalOnEveryRank) {
  constexpr int kRanks = 3;
  std::vector<std::uint64_t> total(kRanks);
  std::vector<int> wide(kRanks);
  on_ranks(kRanks, [&](ThreadRank& ranks) {
    bool w = false;
    const WideCount<1> mine{{static_cast<std::uint64_t>(ranks.rank() + 1) * 1000}};
    total[static_cast<std::size_t>(ranks.rank())] = sum_over_ranks(ranks, mine, w).limb[0];
    wide[static_cast<std::size_t>(ranks.rank())] = w ? 1 : 0;
  });
  EXPECT_EQ(total, (std::vector<std::uint64_t>{6000, 6000, 6000}));
  EXPECT_EQ(wide, (std::vector<int>{0, 0, 0}));
}

// One rank's sum already too wide, or the total past K limbs: every rank hears of it.
TEST(SumOverRanks, EveryRankHearsThatTheTotalIsTooWide) {
  for (const bool overflow_in_total : {false, true}) {
    std::vector<int> wide(2);
    on_ranks(2, [&](ThreadRank& ranks) {
      bool w = !overflow_in_total && ranks.rank() == 1;
      const WideCount<1> mine{{overflow_in_total ? ~std::uint64_t{0} - 1 : 1}};
      sum_over_ranks(ranks, mine, w);
      wide[static_cast<std::size_t>(ranks.rank())] = w ? 1 : 0;
    });
    EXPECT_EQ(wide, (std::vector<int>{1, 1})) << overflow_in_total;
  }
}

// Every rank puts successors of every owner in its threads' outboxes; after the exchange
// each rank holds exactly those it owns, in their parts, and says how many bytes it sent.
TEST(ExchangeOutboxes, EverySuccessorReachesItsOwnerInItsPart) {
  constexpr int kRanks = 3, kSlots = 18;
  constexpr std::size_t kParts = 8, kLo = 4;  // the pass's parts are kLo .. kLo + kParts - 1
  using Entry = SuccessorBlocks<1>::Entry;
  auto part_of = [](std::uint64_t key) { return kLo + class_hash(key) % kParts; };
  auto owner = [](std::uint64_t key) { return owner_rank(route_hash(key, kSlots), kRanks); };
  // What each rank sends: keys 1 ... 3000, dealt to the senders in turn, count = key + sender.
  std::vector<std::multimap<std::uint64_t, std::uint64_t>> expected(kRanks);
  std::vector<std::uint64_t> entries_sent(kRanks, 0);
  for (std::uint64_t key = 1; key <= 3000; ++key) {
    const int sender = static_cast<int>(key % kRanks);
    expected[static_cast<std::size_t>(owner(key))].insert(
        {key, key + static_cast<std::uint64_t>(sender)});
    ++entries_sent[static_cast<std::size_t>(sender)];
  }
  for (const auto& e : expected) ASSERT_GT(e.size(), 500u);  // every rank owns some
  std::vector<std::multimap<std::uint64_t, std::uint64_t>> held(kRanks);
  std::vector<int> misplaced(kRanks, 0);
  std::vector<std::optional<std::uint64_t>> sent(kRanks);
  on_ranks(kRanks, [&](ThreadRank& ranks) {
    const auto me = static_cast<std::size_t>(ranks.rank());
    MemoryBudget budget(std::uint64_t{1} << 28);
    tbb::enumerable_thread_specific<Expansion<1>> expansions(
        [&] { return Expansion<1>(kParts, kRanks, budget, true); });  // combining
    Expansion<1>& mine = expansions.local();
    for (std::uint64_t key = 1; key <= 3000; ++key) {
      if (key % kRanks != me) continue;
      ASSERT_TRUE(
          mine.outbox.add(static_cast<std::size_t>(owner(key)), key, WideCount<1>{{key + me}}));
    }
    sent[me] = exchange_outboxes(ranks, expansions, part_of, kLo, kSlots);
    for (auto& e : expansions) {
      EXPECT_EQ(e.outbox.successors(), 0u);  // sent, and emptied
      EXPECT_TRUE(e.flush(kLo));             // what the combiner held, kept
      for (std::size_t p = 0; p < kParts; ++p) {
        e.blocks.for_each(p, [&](const Entry& x) {
          held[me].insert({x.key, x.count.limb[0]});
          if (part_of(x.key) != kLo + p) ++misplaced[me];
        });
      }
    }
  });
  for (std::size_t r = 0; r < kRanks; ++r) {
    EXPECT_EQ(held[r], expected[r]) << "rank " << r;
    EXPECT_EQ(misplaced[r], 0) << "rank " << r;
    ASSERT_TRUE(sent[r].has_value());
    EXPECT_EQ(*sent[r], entries_sent[r] * sizeof(Entry)) << "rank " << r;
  }
}

}  // namespace
}  // namespace knightstour::frontier_detail
