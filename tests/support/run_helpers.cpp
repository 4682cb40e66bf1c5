#include "support/run_helpers.hpp"

#include "knightstour/board/square.hpp"

namespace knightstour::test {

SessionResult enumerate_session(const std::filesystem::path& dir, const std::string& board,
                                const std::string& start, bool resume, Caps caps, Shard shard,
                                int split_depth, TourFormat format, double checkpoint_seconds) {
  JobRequest job;
  job.command = Command::enumerate;
  job.dir = dir;
  job.resume = resume;
  job.request.board = parse_board(board);
  if (start == "all") {
    job.request.all_starts = true;
  } else {
    for (int s : parse_square_list(job.request.board, start, "prefix"))
      job.request.prefix.push_back(static_cast<std::uint8_t>(s));
  }
  job.request.split_depth = split_depth;
  job.request.shard = shard;
  job.threads = 2;
  job.caps = caps;
  job.format = format;
  job.files.part_size = 1 << 16;
  job.files.checkpoint_seconds = checkpoint_seconds;
  const auto outcome = run_job(job);
  return {outcome.report, outcome.cleaned};
}

}  // namespace knightstour::test
