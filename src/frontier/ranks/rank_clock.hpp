#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "frontier/progress/step_progress.hpp"
#include "knightstour/frontier/ranks.hpp"

namespace knightstour::frontier_detail {

// Ranks that time this rank's collective calls: in them it waits for the slowest rank (and
// moves bytes), so a step's wall time less this is what the rank itself was busy, and the
// ranks' busy times show which one holds the others back.
class RankClock final : public Ranks {
 public:
  explicit RankClock(Ranks& ranks) : ranks_(ranks) {}

  // Seconds spent in collective calls since the last take_waited().
  double take_waited() {
    const double w = waited_;
    waited_ = 0;
    return w;
  }

  int rank() const override { return ranks_.rank(); }
  int size() const override { return ranks_.size(); }
  int ranks_on_this_node() const override { return ranks_.ranks_on_this_node(); }
  std::uint64_t max(std::uint64_t value) override {
    const Timing timing(waited_);
    return ranks_.max(value);
  }
  std::uint64_t sum(std::uint64_t value) override {
    const Timing timing(waited_);
    return ranks_.sum(value);
  }
  std::uint32_t any_bits(std::uint32_t bits) override {
    const Timing timing(waited_);
    return ranks_.any_bits(bits);
  }
  std::vector<std::byte> all_gather(const std::vector<std::byte>& bytes) override {
    const Timing timing(waited_);
    return ranks_.all_gather(bytes);
  }
  std::vector<std::byte> all_to_all(const std::vector<std::byte>& send,
                                    const std::vector<std::uint64_t>& offset) override {
    const Timing timing(waited_);
    return ranks_.all_to_all(send, offset);
  }

 private:
  // Adds the seconds it lives to `waited`.
  struct Timing {
    explicit Timing(double& into) : waited(into) {}
    Timing(const Timing&) = delete;
    Timing& operator=(const Timing&) = delete;
    ~Timing() {
      waited += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    double& waited;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  };

  Ranks& ranks_;
  double waited_ = 0;
};

// Step `step`'s figures over the ranks, from each rank's busy seconds and the bytes it sent
// (collective: every rank gets them).
inline RankStep gather_rank_step(Ranks& ranks, int step, double busy, std::uint64_t sent) {
  struct Mine {
    double busy;
    std::uint64_t sent;
  };
  const Mine mine{busy, sent};
  std::vector<std::byte> bytes(sizeof(Mine));
  std::memcpy(bytes.data(), &mine, sizeof(Mine));
  const std::vector<std::byte> all = ranks.all_gather(bytes);
  RankStep figures;
  figures.step = step;
  for (int r = 0; r < ranks.size(); ++r) {
    Mine one{};
    std::memcpy(&one, all.data() + static_cast<std::size_t>(r) * sizeof(Mine), sizeof(Mine));
    figures.exchanged += one.sent;
    if (r == 0 || one.busy > figures.slowest_busy) {
      figures.slowest = r;
      figures.slowest_busy = one.busy;
    }
    if (r == 0 || one.busy < figures.fastest_busy) figures.fastest_busy = one.busy;
  }
  return figures;
}

}  // namespace knightstour::frontier_detail
