#include "knightstour/exec/tour_file_sink.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "knightstour/base/progress.hpp"
#include "knightstour/io/row_map.hpp"
#include "knightstour/search/prefix_search.hpp"

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
  }
  void tours(int, std::uint64_t) {}
};

}  // namespace

// The open part of one worker thread and the prefixes whose tours are in it.
struct TourFileSink::Thread {
  std::unique_ptr<TourFileWriter> part;
  std::vector<PrefixResult> pending;
  Clock::time_point opened;
  bool failed = false;
};

struct TourFileSink::Threads {
  tbb::enumerable_thread_specific<Thread> local;
};

TourFileSink::TourFileSink(PartFiles& parts, TourFileOptions options)
    : parts_(parts), options_(options), threads_(std::make_unique<Threads>()) {}

TourFileSink::~TourFileSink() = default;

void TourFileSink::commit(Thread& t, Recorder& recorder) {
  if (!t.part) return;
  const auto rows = t.part->tours();
  std::uint64_t bytes = 0;
  if (rows == 0) {
    t.part->abandon();
  } else {
    t.part->finish();
    bytes = t.part->bytes();  // final: the frame end and header are written
    for (auto& r : t.pending) {
      if (!r.part.empty()) {
        r.part_rows = rows;
        r.part_bytes = bytes;
      }
    }
  }
  // If the record fails (the journal's disk is full), t.part stays for the caller to abandon,
  // which withdraws the published file too: no file is left that no journal line names.
  if (!t.pending.empty()) recorder.record(std::move(t.pending));
  if (rows > 0) {
    files_.fetch_add(1);
    tours_.fetch_add(rows);
    bytes_.fetch_add(bytes);
  }
  t.part.reset();
  t.pending.clear();
}

bool TourFileSink::run(const WorkItem& item, ItemContext& context) {
  Thread& out = threads_->local.local();
  try {
    const Plan& plan = context.plan;
    const Board& board = plan.board();
    const auto prefix = plan.prefixes()[item.searched];
    if (!out.part) {
      out.part = parts_.open_part();
      out.opened = Clock::now();
    }
    std::vector<std::optional<RowMapper>> maps;
    for (const auto& m : item.members) {
      if (m.symmetry == 0) {
        maps.emplace_back();
      } else {
        maps.emplace_back(RowMapper(plan.group()[m.symmetry], board.squares()));
      }
    }
    const auto t0 = Clock::now();
    WriteVisitor visitor{*out.part, maps, board.neighbours(prefix[0])};
    // cppcheck-suppress danglingTemporaryLifetime ; the visitor holds the bitboard by value
    KernelPoll poll(context.stop, visitor.total, maps.size());
    std::uint64_t nodes = 0;
    if (!search_prefix(board, plan.mode(), prefix, context.poll_interval, visitor, poll, nodes)) {
      out.part->rollback();  // the interrupted prefix leaves no tours behind
      return false;
    }
    out.part->checkpoint();
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const auto file = out.part->final_path().filename().string();
    const std::size_t charged = out.pending.size() + item.charged();
    for (const auto& m : item.members) {
      PrefixResult r;
      r.id = m.id;
      r.tours = visitor.total;
      r.closed = visitor.closed;
      r.part = r.tours > 0 ? file : "";
      out.pending.push_back(std::move(r));
    }
    out.pending[charged].nodes = nodes;
    out.pending[charged].seconds = seconds;
    const double age = std::chrono::duration<double>(Clock::now() - out.opened).count();
    if (out.part->bytes() >= options_.part_size || age >= options_.checkpoint_seconds) {
      commit(out, context.recorder);
    }
    return true;
  } catch (...) {
    out.failed = true;
    throw;
  }
}

void TourFileSink::end(Recorder& recorder, bool) {
  // Publish what every healthy thread has finished, also when stopping early; the parts are
  // fsynced side by side. A thread whose write failed leaves its part unpublished.
  std::vector<Thread*> open_parts;
  for (auto& t : threads_->local) {
    if (t.failed || !t.part) {
      if (t.part) t.part->abandon();
      t.part.reset();
    } else {
      open_parts.push_back(&t);
    }
  }
  std::mutex failure_mutex;
  std::exception_ptr failure;
  const auto commit_part = [&](Thread* t) {
    try {
      t->part->rollback();
      commit(*t, recorder);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      if (t->part) t->part->abandon();
    }
  };
  std::vector<std::thread> committers;
  for (auto* t : open_parts) {
    try {
      committers.emplace_back(commit_part, t);
    } catch (const std::system_error&) {
      commit_part(t);  // no thread to spare (a process or memory limit): commit here instead
    }
  }
  for (auto& c : committers) c.join();
  if (failure) std::rethrow_exception(failure);
}

std::string TourFileSink::status() const {
  return ", in finished files " + human_count(static_cast<double>(tours_.load()));
}

TourFileStats TourFileSink::stats() const { return {files_.load(), tours_.load(), bytes_.load()}; }

}  // namespace knightstour
