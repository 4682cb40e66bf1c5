#include "knightstour/exec/count_engine.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>

#include "knightstour/base/progress.hpp"
#include "knightstour/exec/parallel_runner.hpp"
#include "knightstour/exec/work_order.hpp"
#include "knightstour/plan/prefix_plan.hpp"
#include "knightstour/plan/work_list.hpp"
#include "knightstour/search/prefix_search.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

namespace {

using Clock = std::chrono::steady_clock;

struct CountVisitor {
  static constexpr bool kNeedsPath = false;
  std::uint64_t total = 0;
  std::array<std::uint64_t, Board::kMaxSquares> by_end{};

  void tour(int, const std::uint8_t*) {}
  void tours(int last, std::uint64_t n) {
    total += n;
    by_end[static_cast<unsigned>(last)] += n;
  }
};

PrefixCounts mapped(const PrefixCounts& found, const Symmetry& g, const Board& board, int start) {
  PrefixCounts out;
  out.by_end.assign(static_cast<std::size_t>(board.squares()), 0);
  for (int e = 0; e < board.squares(); ++e) {
    out.by_end[static_cast<std::size_t>(g(e))] = found.by_end[static_cast<std::size_t>(e)];
  }
  out.tours = found.tours;
  for (int e = 0; e < board.squares(); ++e) {
    if (board.adjacent(e, start)) out.closed += out.by_end[static_cast<std::size_t>(e)];
  }
  return out;
}

std::string status_line(const CountReport& r, std::size_t done, const StopControl& stop,
                        Clock::time_point started, const WorkMeter& meter) {
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  const double nodes = static_cast<double>(stop.nodes());
  const double eta = meter.eta(nodes, elapsed);
  const double share = meter.total() > 0 ? std::min(1.0, nodes / meter.total()) : 0;
  return "prefixes " + std::to_string(done) + "/" + std::to_string(r.shard_prefixes) +
         ", tours found " + human_count(static_cast<double>(stop.tours())) + ", nodes " +
         human_count(nodes) + " (" + human_count(nodes / std::max(elapsed, 1e-9)) + "/s), ~" +
         std::to_string(static_cast<int>(share * 100)) + "% of the estimated " +
         human_count(meter.total()) + " nodes, elapsed " + human_duration(elapsed) + ", ETA ~" +
         human_duration(eta);
}

}  // namespace

CountReport run_count(const JobSpec& job, const CountOptions& options, StopControl& stop) {
  const auto started = Clock::now();
  const Board& board = job.board;
  const auto squares = static_cast<std::size_t>(board.squares());
  const PrefixPlan plan(board, job.roots(), job.mode, job.split_depth);
  const auto group = search_group(job);
  auto since = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  spdlog::debug("plan of {} prefixes ready after {:.4f} s", plan.size(), since());

  CountReport report;
  report.threads = job.threads;
  report.split_depth = job.split_depth;
  report.plan_prefixes = plan.size();
  report.tours_by_start.assign(squares, 0);
  report.closed_by_start.assign(squares, 0);
  report.tours_by_end.assign(squares, 0);

  auto done_before = [&](std::size_t id) {
    return id < options.done_before.size() && options.done_before[id].has_value();
  };
  std::vector<std::optional<PrefixCounts>> results(plan.size());
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (!job.shard.contains(id)) continue;
    ++report.shard_prefixes;
    if (done_before(id)) results[id] = options.done_before[id];
  }
  auto items = build_work_list(
      plan, group, [&](std::size_t id) { return job.shard.contains(id) && !done_before(id); });
  report.searches = items.size();
  spdlog::debug("work list of {} searches ready after {:.4f} s", items.size(), since());

  std::atomic<std::size_t> done{report.shard_prefixes - prefixes_in(items)};
  std::mutex record_mutex;
  WorkMeter meter;
  const std::uint64_t poll_interval = stop.poll_interval(job.threads);
  {
    ProgressMonitor monitor(options.progress_seconds,
                            [&] { return status_line(report, done.load(), stop, started, meter); });
    auto prepare = [&] {
      if (!options.largest_first) return;
      meter.set_sizes(order_largest_first(items, plan, job, stop));
      spdlog::debug("searches ordered largest first after {:.4f} s", since());
    };
    for_each_work_item(
        items.size(), job.threads, stop,
        [&](std::size_t i) {
          const WorkItem& item = items[i];
          const auto t0 = Clock::now();
          CountVisitor visitor;
          KernelPoll poll(stop, visitor.total);
          std::uint64_t nodes = 0;
          if (!search_prefix(job, plan[item.searched], poll_interval, visitor, poll, nodes)) return;
          PrefixCounts found;
          found.tours = visitor.total;
          found.by_end.assign(visitor.by_end.begin(),
                              visitor.by_end.begin() + static_cast<long>(squares));
          const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
          for (const auto& member : item.members) {
            const auto prefix = plan[member.id];
            PrefixCounts counts = mapped(found, group[member.symmetry], board, prefix[0]);
            if (member.id == item.searched) {
              counts.nodes = nodes;
              counts.seconds = seconds;
            }
            if (options.on_prefix_done) {  // the only shared step: recording, serialized
              std::lock_guard lock(record_mutex);
              options.on_prefix_done(member.id, prefix, counts);
            }
            results[member.id] = std::move(counts);  // each slot has one writer
            done.fetch_add(1);
          }
          meter.finished(i);
        },
        prepare);
  }

  spdlog::debug("searches done after {:.4f} s", since());
  report.nodes = stop.nodes();
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (!results[id]) continue;
    const auto& r = *results[id];
    ++report.prefixes_done;
    const auto start = plan[id][0];
    report.tours += r.tours;
    report.journaled_nodes += r.nodes;
    report.closed += r.closed;
    report.tours_by_start[start] += r.tours;
    report.closed_by_start[start] += r.closed;
    for (std::size_t e = 0; e < squares; ++e) report.tours_by_end[e] += r.by_end[e];
  }
  report.stop_reason = report.complete() ? StopReason::none : stop.reason();
  report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return report;
}

}  // namespace knightstour
