#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace knightstour {

// Limits on one run; 0 means none.
struct Caps {
  std::uint64_t max_nodes = 0;
  std::uint64_t max_tours = 0;
  double time_limit = 0;  // seconds

  friend bool operator==(const Caps&, const Caps&) = default;
};

enum class StopReason : int {
  none = 0,
  node_cap,
  tour_cap,
  time_limit,
  signal,
  failure,
  missing_shards,  // a merge of shards that do not cover every prefix
  memory,          // the frontier counter's memory budget
};

std::string describe(StopReason reason);  // "node cap (--max-nodes) reached", ...
// A stable token for files and JSON: "max_nodes", "max_tours", "time_limit", "signal",
// "failure", "missing_shards", "memory"; "" for none.
std::string token(StopReason reason);
// The reason whose token() or describe() (manifests before tokens) is `text`; nothing when
// none is.
std::optional<StopReason> stop_reason_described(const std::string& text);

// Shared by the tasks of one run: work counters, caps, deadline and the stop flag.
// Kernels call account() about every poll_interval() nodes, never per node.
class StopControl {
 public:
  explicit StopControl(const Caps& caps);

  bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  StopReason reason() const { return static_cast<StopReason>(reason_.load()); }
  void request(StopReason reason);  // the first reason wins

  // Adds the nodes and tours found since the caller's last call; returns true when the run
  // must stop (a cap, the time limit, a signal, or a stop requested elsewhere).
  bool account(std::uint64_t nodes, std::uint64_t tours);
  // For work that is not counted in nodes (find, frontier steps): checks the deadline and
  // signals; true when the run must stop.
  bool poll() { return account(0, 0); }

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  std::uint64_t tours() const { return tours_.load(std::memory_order_relaxed); }

  // Nodes between polls: ~10^6, smaller under a small node cap so the cap is overshot by
  // little (at most threads * interval nodes).
  std::uint64_t poll_interval(int threads) const;

 private:
  Caps caps_;
  std::atomic<bool> stop_{false};
  std::atomic<int> reason_{0};
  std::atomic<std::uint64_t> nodes_{0};
  std::atomic<std::uint64_t> tours_{0};
  std::chrono::steady_clock::time_point deadline_;
};

// The kernel's poll callback for one search: hands the nodes and tours found since the last
// poll to the shared StopControl and says whether to stop. `tours` is the visitor's counter;
// each tour found stands for `copies` tours of the run (its mirror images are derived), so
// --max-tours means the same whatever the symmetry saving.
class KernelPoll {
 public:
  KernelPoll(StopControl& stop, const std::uint64_t& tours, std::uint64_t copies = 1)
      : stop_(stop), tours_(tours), copies_(copies) {}
  bool operator()(std::uint64_t nodes) {
    const bool must_stop =
        stop_.account(nodes - reported_nodes_, (tours_ - reported_tours_) * copies_);
    reported_nodes_ = nodes;
    reported_tours_ = tours_;
    return must_stop;
  }

 private:
  StopControl& stop_;
  const std::uint64_t& tours_;
  std::uint64_t copies_;
  std::uint64_t reported_nodes_ = 0;
  std::uint64_t reported_tours_ = 0;
};

// SIGINT and SIGTERM set a flag that every StopControl sees; a second SIGINT kills the
// process at once (a run directory stays consistent even then).
void install_stop_signal_handlers();
bool stop_signal_received();
int stop_signal_number();  // the signal received, or 0

}  // namespace knightstour
