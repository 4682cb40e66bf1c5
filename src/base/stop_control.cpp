#include "knightstour/base/stop_control.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <cstdint>

namespace knightstour {

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "signal handler needs a lock-free flag");

// When the first stop signal came (CLOCK_MONOTONIC, ns).
std::atomic<std::int64_t> g_first_signal_ns{0};
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

// A second SIGINT exits at once, unless it comes within this long of the first: GNU
// `timeout -s INT` signals the command and then its whole process group, so one timeout
// delivers two SIGINTs back to back (it made `estimate` exit 130 without its report).
constexpr std::int64_t kRepeatedInterruptNs = 1'000'000'000;

extern "C" void on_stop_signal(int signal) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  const std::int64_t ns = std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  if (g_signal.load() == 0) {
    g_first_signal_ns.store(ns);
    g_signal.store(signal);
    return;
  }
  if (signal == SIGINT && ns - g_first_signal_ns.load() >= kRepeatedInterruptNs) {
    static const char message[] = "knightstour: second interrupt, exiting now\n";
    (void)!write(STDERR_FILENO, message, sizeof message - 1);
    _exit(130);
  }
}

// No limit (0) is a deadline far enough away that no run reaches it.
std::chrono::steady_clock::time_point deadline_after(double seconds) {
  const auto limit = std::chrono::duration<double>(seconds > 0 ? seconds : 1e9);
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(limit);
}

}  // namespace

std::string describe(StopReason reason) {
  switch (reason) {
    case StopReason::none:
      return "not stopped";
    case StopReason::node_cap:
      return "node cap (--max-nodes) reached";
    case StopReason::tour_cap:
      return "tour cap (--max-tours) reached";
    case StopReason::time_limit:
      return "time limit (--time-limit) reached";
    case StopReason::signal:
      return "interrupted by a signal";
    case StopReason::failure:
      return "stopped by an error";
    case StopReason::missing_shards:
      return "merged from shards that do not cover every prefix";
    case StopReason::memory:
      return "memory budget (--memory) reached";
  }
  return "unknown";
}

std::string token(StopReason reason) {
  switch (reason) {
    case StopReason::none:
      return "";
    case StopReason::node_cap:
      return "max_nodes";
    case StopReason::tour_cap:
      return "max_tours";
    case StopReason::time_limit:
      return "time_limit";
    case StopReason::signal:
      return "signal";
    case StopReason::failure:
      return "failure";
    case StopReason::missing_shards:
      return "missing_shards";
    case StopReason::memory:
      return "memory";
  }
  return "failure";
}

std::optional<StopReason> stop_reason_described(const std::string& text) {
  if (text.empty()) return StopReason::none;
  for (int r = 0; r <= static_cast<int>(StopReason::memory); ++r) {
    const auto reason = static_cast<StopReason>(r);
    if (token(reason) == text || describe(reason) == text) return reason;
  }
  return std::nullopt;
}

StopControl::StopControl(const Caps& caps)
    : caps_(caps), deadline_(deadline_after(caps.time_limit)) {}

void StopControl::request(StopReason reason) {
  int expected = 0;
  reason_.compare_exchange_strong(expected, static_cast<int>(reason));
  stop_.store(true);
}

bool StopControl::account(std::uint64_t nodes, std::uint64_t tours) {
  const auto total_nodes = nodes_.fetch_add(nodes, std::memory_order_relaxed) + nodes;
  const auto total_tours = tours_.fetch_add(tours, std::memory_order_relaxed) + tours;
  if (stopped()) return true;
  if (caps_.max_nodes != 0 && total_nodes >= caps_.max_nodes) {
    request(StopReason::node_cap);
  } else if (caps_.max_tours != 0 && total_tours >= caps_.max_tours) {
    request(StopReason::tour_cap);
  } else if (caps_.time_limit > 0 && std::chrono::steady_clock::now() >= deadline_) {
    request(StopReason::time_limit);
  } else if (stop_signal_received()) {
    request(StopReason::signal);
  }
  return stopped();
}

std::uint64_t StopControl::poll_interval(int threads) const {
  std::uint64_t interval = std::uint64_t{1} << 20;
  if (caps_.max_nodes != 0) {
    const auto share = caps_.max_nodes / (8 * static_cast<std::uint64_t>(std::max(threads, 1)));
    interval = std::min(interval, std::bit_floor(std::max<std::uint64_t>(share, 1)));
  }
  return interval;
}

void install_stop_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool stop_signal_received() { return g_signal.load(std::memory_order_relaxed) != 0; }

int stop_signal_number() { return g_signal.load(); }

}  // namespace knightstour
