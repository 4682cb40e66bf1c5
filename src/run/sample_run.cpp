#include "knightstour/run/sample_run.hpp"

#include <chrono>
#include <optional>

#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/bitboard.hpp"
#include "knightstour/io/tour_file_writer.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/run/job_runner.hpp"
#include "knightstour/run/run_directory.hpp"
#include "knightstour/run/run_layout.hpp"
#include "knightstour/search/prefix_search.hpp"

namespace knightstour {
namespace {

// Takes the first `wanted` tours the kernel reports, in the order it reports them.
struct SampleVisitor {
  static constexpr bool kNeedsPath = true;
  TourFileWriter& out;
  std::uint64_t wanted;
  Bitboard closing;  // squares next to the current start
  std::uint64_t taken = 0;
  std::uint64_t closed = 0;

  void tour(int last, const std::uint8_t* path) {
    if (taken == wanted) return;  // found between the N-th tour and the next poll
    out.add(path);
    ++taken;
    if (closing & bit(last)) ++closed;
  }
  void tours(int, std::uint64_t) {}
};

// Stops the search once the sample is full, or on the time limit or a signal.
struct SamplePoll {
  const SampleVisitor& visitor;
  StopControl& stop;
  std::uint64_t reported = 0;
  bool operator()(std::uint64_t nodes) {
    const bool must_stop = stop.account(nodes - reported, 0);
    reported = nodes;
    return must_stop || visitor.taken == visitor.wanted;
  }
};

// Nodes between polls: a full sample overshoots by at most this many nodes (well under a
// millisecond), and a signal is seen as soon.
constexpr std::uint64_t kPollInterval = std::uint64_t{1} << 16;

}  // namespace

std::vector<std::string> check(const SampleRequest& request) {
  std::vector<std::string> refusals;
  if (request.tours == 0) refusals.emplace_back("$sample must be at least 1");
  if (request.dir.empty()) refusals.emplace_back("enumerate needs $out DIR");
  if (request.dir == "-") refusals.emplace_back(std::string(kToursNeedADirectory));
  return refusals;
}

SampleOutcome write_sample(const SampleRequest& r, StopControl& stop) {
  refuse_first(check(r));
  const auto started = std::chrono::steady_clock::now();
  const double cpu_started = process_cpu_seconds();
  Request request = r.request;
  request.symmetry = false;
  request.split_depth = static_cast<int>(request.all_starts ? 1 : request.prefix.size());
  const Plan plan = resolve(request, 1);  // validates the request; the sample ignores its split
  RunDirectory dir = RunDirectory::create(r.dir, "choose another directory");

  SampleOutcome outcome;
  RunManifest& m = outcome.manifest;
  m.command = Command::enumerate;
  m.describe(plan.request());
  m.tour_format = r.format;
  m.compression = r.compression;
  m.sample = r.tours;
  m.version = KNIGHTSTOUR_VERSION;
  m.provenance = r.provenance;
  m.threads = 1;
  m.created = utc_now_iso8601();

  const Board& board = plan.board();
  outcome.file =
      dir.dir() / run_layout::tour_file_name(0, 0, file_extension(r.format, r.compression));
  TourFileWriter writer(outcome.file, board.shape(), r.format, r.compression);
  SampleVisitor visitor{writer, r.tours, Bitboard{}};
  SamplePoll poll{visitor, stop};
  std::uint64_t nodes_searched = 0;
  for (const auto& root : request.roots()) {
    visitor.closing = board.neighbours(root[0]);
    std::uint64_t nodes = 0;
    search_prefix(board, plan.mode(), root, kPollInterval, visitor, poll, nodes);
    nodes_searched += nodes;
    if (visitor.taken == r.tours) break;
    if (stop.stopped()) {
      writer.abandon();
      throw Interrupted("stopped (" + describe(stop.reason()) + ") after " +
                        std::to_string(visitor.taken) + " of the " + std::to_string(r.tours) +
                        " tours of the sample; nothing was written");
    }
  }
  writer.finish();
  outcome.whole_set = visitor.taken < r.tours;
  outcome.bytes = static_cast<std::uint64_t>(std::filesystem::file_size(outcome.file));
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  outcome.cpu_seconds = process_cpu_seconds() - cpu_started;

  m.status = RunStatus::complete;
  m.prefixes_in_plan = plan.prefixes().size();
  m.prefixes = plan.shard_prefixes();
  m.tours = visitor.taken;
  m.closed_tours = visitor.closed;
  m.nodes = nodes_searched;
  m.nodes_searched = nodes_searched;
  m.tour_files = 1;
  m.updated = utc_now_iso8601();
  m.seconds = outcome.seconds;
  m.cpu_seconds = outcome.cpu_seconds;
  m.sessions = 1;
  write_manifest(dir.dir(), m);
  return outcome;
}

}  // namespace knightstour
