#include "knightstour/exec/driver.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>

#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/cpus.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/exec/parallel_runner.hpp"
#include "knightstour/exec/work_order.hpp"

namespace knightstour {

namespace {

using Clock = std::chrono::steady_clock;

// Takes finished prefixes from the sinks' threads, one batch at a time, into the ledger and
// the session's table of results.
class SessionRecorder final : public Recorder {
 public:
  SessionRecorder(Ledger& ledger, std::size_t plan_size) : ledger_(ledger), results_(plan_size) {}

  void record(std::vector<PrefixResult> results) override {
    std::lock_guard lock(mutex_);
    ledger_.record(results);
    for (auto& r : results) {
      const std::size_t id = r.id;
      results_[id] = std::move(r);
    }
  }

  std::vector<std::optional<PrefixResult>>& results() { return results_; }

 private:
  std::mutex mutex_;
  Ledger& ledger_;
  std::vector<std::optional<PrefixResult>> results_;
};

// The items still to run: members finished by earlier sessions are dropped (the searched
// prefix is still searched when only its mirror images remain).
std::vector<WorkItem> remaining_items(const Plan& plan,
                                      const std::vector<std::optional<PrefixResult>>& before) {
  auto done = [&](std::size_t id) { return id < before.size() && before[id].has_value(); };
  std::vector<WorkItem> items;
  for (const auto& item : plan.items()) {
    WorkItem left{item.searched, {}};
    for (const auto& m : item.members) {
      if (!done(m.id)) left.members.push_back(m);
    }
    if (!left.members.empty()) items.push_back(std::move(left));
  }
  return items;
}

// Nodes searched over the sampled total (good to ~10%, so it can pass 1 while work
// remains); below 0 before there is a total. The progress line and the bar both show it,
// never as done while work remains.
double searched_share(const StopControl& stop, const WorkMeter& meter) {
  return meter.total() > 0 ? static_cast<double>(stop.nodes()) / meter.total() : -1;
}

std::string status_line(std::size_t done, std::size_t total, const StopControl& stop,
                        double elapsed, const WorkMeter& meter, const std::string& extra) {
  const double nodes = static_cast<double>(stop.nodes());
  const double searched = searched_share(stop, meter);
  // While work remains, never 100% nor an ETA of 0: past the sampled total, say so instead
  // of a share.
  std::string share;
  if (searched < 0) {
    share = "total not estimated yet";
  } else if (searched < 1) {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.1f", std::min(99.9, 100 * searched));
    share = std::string("~") + percent + "% of ~" + human_count(meter.total()) + " nodes";
  } else {
    share = "past the estimated ~" + human_count(meter.total()) + " nodes";
  }
  const double eta = meter.eta(nodes, elapsed);
  // Most wanted first and last: a narrow terminal cuts the middle.
  return "prefixes " + with_commas(done) + "/" + with_commas(total) + ", " + share + ", tours " +
         human_count(static_cast<double>(stop.tours())) + " (mirror images included)" + extra +
         ", " + human_count(nodes / std::max(elapsed, 1e-9)) + " nodes/s, elapsed " +
         human_duration(elapsed) + ", ETA " +
         (eta < 0 ? std::string("unknown") : "~" + human_duration(std::max(eta, 1.0)));
}

// The counts of every finished prefix, this session's and earlier ones' (`before`, which
// `results` takes in where this session did not search them), summed into `report`.
void add_results(RunReport& report, const Plan& plan,
                 const std::vector<std::optional<PrefixResult>>& before,
                 std::vector<std::optional<PrefixResult>>& results) {
  const auto squares = static_cast<std::size_t>(plan.board().squares());
  const std::size_t plan_size = plan.prefixes().size();
  report.tours_by_start.assign(squares, 0);
  report.closed_by_start.assign(squares, 0);
  report.tours_by_end.assign(squares, 0);
  for (std::size_t id = 0; id < before.size() && id < plan_size; ++id) {
    if (before[id] && !results[id]) {
      results[id] = before[id];
      ++report.prefixes_before;
    }
  }
  for (std::size_t id = 0; id < plan_size; ++id) {
    if (!results[id]) continue;
    const auto& r = *results[id];
    ++report.prefixes_done;
    const auto start = plan.prefixes()[id][0];
    const std::string what = "prefix " + std::to_string(id);
    add_checked(report.tours, r.tours, what);
    add_checked(report.closed, r.closed, what);
    add_checked(report.journaled_nodes, r.nodes, what);
    add_checked(report.tours_by_start[start], r.tours, what);
    add_checked(report.closed_by_start[start], r.closed, what);
    add_checked(report.self_reverse, r.self_reverse, what);
    add_checked(report.cycle_stabilizers, r.cycle_stabilizers, what);
    if (!r.by_end.empty()) {
      for (std::size_t e = 0; e < squares; ++e)
        add_checked(report.tours_by_end[e], r.by_end[e], what);
    }
  }
}

}  // namespace

RunReport run_plan(const Plan& plan, Sink& sink, Ledger& ledger, const ExecOptions& options,
                   StopControl& stop) {
  const double cpu_before = process_cpu_seconds();
  const auto started = Clock::now();
  auto since = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  const std::size_t plan_size = plan.prefixes().size();

  RunReport report;
  report.threads = options.threads;
  report.split_depth = plan.split_depth();
  report.plan_prefixes = plan_size;
  report.shard_prefixes = plan.shard_prefixes();

  const auto before = ledger.done_before();
  auto items = remaining_items(plan, before);
  report.searches = items.size();
  SessionRecorder recorder(ledger, plan_size);
  spdlog::debug("{} searches to run, {:.4f} s after the start", items.size(), since());

  WorkMeter meter;
  // Prefixes whose search has finished, whether or not a sink has committed them yet: an
  // enumerate run journals a prefix only when its part file is published, which can be
  // minutes later, and the progress line should move as the search does.
  std::atomic<std::size_t> searched_members{0};
  ItemContext context{plan, stop, stop.poll_interval(options.threads), recorder};
  std::exception_ptr failure;
  {
    std::size_t finished_before = 0;
    for (const auto& r : before) finished_before += r ? 1 : 0;
    ProgressMonitor monitor(
        options.progress_seconds,
        [&] {
          return status_line(finished_before + searched_members.load(), report.shard_prefixes, stop,
                             since(), meter, sink.status());
        },
        [&] {  // the bar
          const double searched = searched_share(stop, meter);
          return searched < 0 ? searched : std::min(0.999, searched);
        });
    auto prepare = [&] {
      if (!options.largest_first) return;
      meter.set_sizes(order_largest_first(items, plan, stop));
      spdlog::debug("searches ordered largest first after {:.4f} s", since());
    };
    try {
      for_each_work_item(
          items.size(), options.threads, stop,
          [&](std::size_t i) {
            if (!sink.run(items[i], context)) return;
            meter.finished(i);
            searched_members.fetch_add(items[i].members.size());
          },
          prepare);
    } catch (...) {
      failure = std::current_exception();
    }
    try {
      sink.end(recorder, failure != nullptr);
      ledger.sync();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  spdlog::debug("searches done after {:.4f} s", since());

  report.nodes = stop.nodes();
  report.tours_found = stop.tours();
  add_results(report, plan, before, recorder.results());
  report.stop_reason = report.complete() ? StopReason::none : stop.reason();
  report.seconds = since();
  report.cpu_seconds = process_cpu_seconds() - cpu_before;
  return report;
}

}  // namespace knightstour
