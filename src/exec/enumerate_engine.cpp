#include "knightstour/exec/enumerate_engine.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <memory>

#include "knightstour/base/progress.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/exec/parallel_runner.hpp"
#include "knightstour/exec/work_order.hpp"
#include "knightstour/io/row_map.hpp"
#include "knightstour/io/tour_file_writer.hpp"
#include "knightstour/plan/prefix_plan.hpp"
#include "knightstour/plan/work_list.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/search/prefix_search.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour {

namespace {

using Clock = std::chrono::steady_clock;

// Writes each tour once per member prefix of the work item, mapped through its symmetry.
struct WriteVisitor {
  static constexpr bool kNeedsPath = true;
  TourFileWriter& out;
  const std::vector<std::optional<RowMapper>>& maps;  // nothing = identity
  Bitboard closing;                                   // squares next to the start
  std::uint64_t total = 0;
  std::uint64_t closed = 0;
  std::uint64_t written = 0;
  alignas(64) std::uint8_t mapped[Board::kMaxSquares] = {};

  void tour(int last, const std::uint8_t* path) {
    ++total;
    if (closing & bit(last)) ++closed;
    for (const auto& map : maps) {
      if (!map) {
        out.add(path);
      } else if (out.raw_rows()) {
        (*map)(path, out.row_slot());
        out.commit_row();
      } else {
        (*map)(path, mapped);
        out.add(static_cast<const std::uint8_t*>(mapped));
      }
    }
    written += maps.size();
  }
  void tours(int, std::uint64_t) {}
};

// The open part of one thread and the prefixes whose tours are in it.
struct ThreadOutput {
  std::unique_ptr<TourFileWriter> part;
  std::vector<JournalRecord> pending;
  Clock::time_point opened;
  bool failed = false;
};

}  // namespace

EnumerateReport run_enumerate(const JobSpec& job, const EnumerateOptions& options,
                              JournalWriter& journal, StopControl& stop) {
  const auto started = Clock::now();
  const Board& board = job.board;
  const PrefixPlan plan(board, job.roots(), job.mode, job.split_depth);
  const auto group = search_group(job);
  const std::string extension = file_extension(options.format, options.compression);

  EnumerateReport report;
  report.threads = job.threads;
  report.split_depth = job.split_depth;
  report.plan_prefixes = plan.size();
  auto done_before = [&](std::size_t id) {
    return id < options.done_before.size() && options.done_before[id].has_value();
  };
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (job.shard.contains(id)) ++report.shard_prefixes;
  }
  auto items = build_work_list(
      plan, group, [&](std::size_t id) { return job.shard.contains(id) && !done_before(id); });
  report.searches = items.size();

  std::atomic<std::size_t> done{report.shard_prefixes - prefixes_in(items)};
  std::atomic<std::uint64_t> next_part{options.first_part};
  std::atomic<std::uint64_t> files{0}, tours_written{0}, bytes_written{0};
  std::mutex results_mutex;
  std::vector<JournalRecord> finished;  // journaled this session

  auto commit = [&](ThreadOutput& t) {
    if (!t.part) return;
    const auto rows = t.part->tours();
    if (rows == 0) {
      t.part->abandon();
    } else {
      const auto bytes = t.part->bytes();
      t.part->finish();
      files.fetch_add(1);
      tours_written.fetch_add(rows);
      bytes_written.fetch_add(bytes);
    }
    t.part.reset();
    if (!t.pending.empty()) {
      journal.append(t.pending);
      journal.sync();
      std::lock_guard lock(results_mutex);
      for (auto& r : t.pending) finished.push_back(std::move(r));
      done.fetch_add(t.pending.size());
    }
    t.pending.clear();
  };

  tbb::enumerable_thread_specific<ThreadOutput> outputs;
  WorkMeter meter;
  const std::uint64_t poll_interval = stop.poll_interval(job.threads);
  std::exception_ptr failure;
  {
    ProgressMonitor monitor(options.progress_seconds, [&] {
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      return "prefixes " + std::to_string(done.load()) + "/" +
             std::to_string(report.shard_prefixes) + " journaled, tours found " +
             human_count(static_cast<double>(stop.tours())) + ", in finished files " +
             human_count(static_cast<double>(tours_written.load())) + ", nodes " +
             human_count(static_cast<double>(stop.nodes())) + " of ~" + human_count(meter.total()) +
             ", elapsed " + human_duration(elapsed) + ", ETA ~" +
             human_duration(meter.eta(static_cast<double>(stop.nodes()), elapsed));
    });
    try {
      for_each_work_item(
          items.size(), job.threads, stop,
          [&](std::size_t i) {
            ThreadOutput& out = outputs.local();
            try {
              const WorkItem& item = items[i];
              const auto prefix = plan[item.searched];
              if (!out.part) {
                const auto name = RunDirectory::tour_file_name(job.shard.index,
                                                               next_part.fetch_add(1), extension);
                out.part = std::make_unique<TourFileWriter>(options.dir / name, board.shape(),
                                                            options.format, options.compression);
                out.opened = Clock::now();
              }
              std::vector<std::optional<RowMapper>> maps;
              for (const auto& m : item.members) {
                if (m.symmetry == 0) {
                  maps.emplace_back();
                } else {
                  maps.emplace_back(RowMapper(group[m.symmetry], board.squares()));
                }
              }
              const auto t0 = Clock::now();
              WriteVisitor visitor{*out.part, maps, board.neighbours(prefix[0])};
              KernelPoll poll(stop, visitor.written);
              std::uint64_t nodes = 0;
              if (!search_prefix(job, prefix, poll_interval, visitor, poll, nodes)) {
                out.part->rollback();  // the interrupted prefix leaves no tours behind
                return;
              }
              out.part->checkpoint();
              const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
              const auto file = out.part->final_path().filename().string();
              for (const auto& m : item.members) {
                const auto p = plan[m.id];
                JournalRecord r;
                r.id = m.id;
                r.squares = path_name(board, p.data(), static_cast<int>(p.size()));
                r.tours = visitor.total;
                r.closed = visitor.closed;
                r.nodes = m.id == item.searched ? nodes : 0;
                r.seconds = m.id == item.searched ? seconds : 0;
                r.file = r.tours > 0 ? file : "-";
                out.pending.push_back(std::move(r));
              }
              const double age = std::chrono::duration<double>(Clock::now() - out.opened).count();
              if (out.part->bytes() >= options.part_size || age >= options.checkpoint_seconds)
                commit(out);
              meter.finished(i);
            } catch (...) {
              out.failed = true;
              throw;
            }
          },
          [&] { meter.set_sizes(order_largest_first(items, plan, job, stop)); });
    } catch (...) {
      failure = std::current_exception();
    }
    // Publish what every healthy thread has finished, also when stopping early; the parts
    // are fsynced side by side.
    std::vector<ThreadOutput*> open_parts;
    for (auto& out : outputs) {
      if (out.failed || !out.part) {
        if (out.part) out.part->abandon();
      } else {
        open_parts.push_back(&out);
      }
    }
    std::mutex failure_mutex;
    std::vector<std::thread> committers;
    for (auto* out : open_parts) {
      committers.emplace_back([&, out] {
        try {
          out->part->rollback();
          commit(*out);
        } catch (...) {
          std::lock_guard lock(failure_mutex);
          if (!failure) failure = std::current_exception();
          if (out->part) out->part->abandon();
        }
      });
    }
    for (auto& t : committers) t.join();
  }
  if (failure) std::rethrow_exception(failure);

  report.nodes = stop.nodes();
  for (const auto& r : options.done_before) {
    if (!r) continue;
    ++report.prefixes_done;
    report.tours += r->tours;
    report.closed += r->closed;
    report.journaled_nodes += r->nodes;
  }
  for (const auto& r : finished) {
    ++report.prefixes_done;
    report.tours += r.tours;
    report.closed += r.closed;
    report.journaled_nodes += r.nodes;
  }
  report.files_written = files.load();
  report.tours_written = tours_written.load();
  report.bytes_written = bytes_written.load();
  report.stop_reason = report.complete() ? StopReason::none : stop.reason();
  report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return report;
}

}  // namespace knightstour
