#include "support/count_helpers.hpp"

#include "knightstour/board/square.hpp"
#include "knightstour/search/kernel.hpp"
#include "knightstour/search/search_state.hpp"

namespace knightstour::test {

namespace {

struct NeverStop {
  bool operator()(std::uint64_t) { return false; }
};

struct ByEnd {
  static constexpr bool kNeedsPath = false;
  std::vector<std::uint64_t> by_end;
  std::uint64_t total = 0;
  void tour(int, const std::uint8_t*) {}
  void tours(int last, std::uint64_t n) {
    total += n;
    by_end[static_cast<std::size_t>(last)] += n;
  }
};

struct Collect {
  static constexpr bool kNeedsPath = true;
  int squares;
  std::vector<std::vector<std::uint8_t>> out;
  void tour(int, const std::uint8_t* path) { out.emplace_back(path, path + squares); }
  void tours(int, std::uint64_t) {}
};

}  // namespace

KernelCounts kernel_count(const Board& board, const std::vector<std::uint8_t>& prefix,
                          SearchMode mode) {
  ByEnd visitor{std::vector<std::uint64_t>(static_cast<std::size_t>(board.squares()), 0)};
  NeverStop poll;
  KernelCounts out;
  const KernelOptions options{mode.closed, 1 << 20};
  const int length = static_cast<int>(prefix.size());
  if (mode.algorithm == Algorithm::naive) {
    NaiveKernel<ByEnd, NeverStop> kernel(board, options, visitor, poll);
    Bitboard free = board.all();
    for (auto s : prefix) free &= ~bit(s);
    kernel.run(free, prefix.data(), length);
    out.nodes = kernel.nodes();
  } else if (auto root = make_state(board, prefix, mode.closed)) {
    PrunedKernel<ByEnd, NeverStop> kernel(board, options, visitor, poll);
    kernel.run(*root, prefix.data(), length);
    out.nodes = kernel.nodes();
  }
  out.tours = visitor.total;
  out.by_end = visitor.by_end;
  return out;
}

std::vector<std::vector<std::uint8_t>> kernel_tours(const Board& board,
                                                    const std::vector<std::uint8_t>& prefix,
                                                    bool closed) {
  Collect visitor{board.squares(), {}};
  NeverStop poll;
  if (auto root = make_state(board, prefix, closed)) {
    PrunedKernel<Collect, NeverStop> kernel(board, {closed, 1 << 20}, visitor, poll);
    kernel.run(*root, prefix.data(), static_cast<int>(prefix.size()));
  }
  return visitor.out;
}

static JobRequest job_with(Request request, const EngineKnobs& knobs) {
  request.split_depth = knobs.split_depth;
  request.symmetry = knobs.symmetry;
  request.mode.closed = knobs.closed;
  request.mode.algorithm = knobs.algorithm;
  request.shard = knobs.shard;
  JobRequest job;
  job.request = std::move(request);
  job.threads = knobs.threads;
  job.caps = knobs.caps;
  return job;
}

JobRequest make_job(const std::string& board, const std::string& start_or_prefix,
                    const EngineKnobs& knobs) {
  Request request;
  request.board = parse_board(board);
  for (int s : parse_square_list(request.board, start_or_prefix, "prefix")) {
    request.prefix.push_back(static_cast<std::uint8_t>(s));
  }
  return job_with(std::move(request), knobs);
}

JobRequest make_all_starts_job(const std::string& board, const EngineKnobs& knobs) {
  Request request;
  request.board = parse_board(board);
  request.all_starts = true;
  return job_with(std::move(request), knobs);
}

RunReport count(const JobRequest& job) { return run_job(job).report; }

bool is_tour(const Board& board, const std::vector<std::uint8_t>& path) {
  if (static_cast<int>(path.size()) != board.squares()) return false;
  Bitboard seen = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] >= board.squares() || (seen & bit(path[i]))) return false;
    if (i > 0 && !board.adjacent(path[i - 1], path[i])) return false;
    seen |= bit(path[i]);
  }
  return true;
}

}  // namespace knightstour::test
