#include "support/run_helpers.hpp"

#include "knightstour/board/square.hpp"

namespace knightstour::test {

SessionResult enumerate_session(const std::filesystem::path& dir, const std::string& board,
                                const std::string& start, bool resume, Caps caps, Shard shard,
                                int split_depth, TourFormat format, double checkpoint_seconds) {
  RunRequest request;
  request.dir = dir;
  request.resume = resume;
  request.command = "enumerate";
  request.job.board = parse_board(board);
  if (start == "all") {
    request.job.all_starts = true;
  } else {
    for (int s : parse_square_list(request.job.board, start, "prefix"))
      request.job.prefix.push_back(static_cast<std::uint8_t>(s));
  }
  request.job.threads = 2;
  request.job.split_depth = split_depth;
  request.job.caps = caps;
  request.job.shard = shard;
  request.format = format;
  request.part_size = 1 << 16;
  request.checkpoint_seconds = checkpoint_seconds;
  RunSession session(request);
  EnumerateOptions o;
  o.dir = dir;
  o.format = format;
  o.part_size = request.part_size;
  o.checkpoint_seconds = checkpoint_seconds;
  o.first_part = session.recovery().next_part;
  o.done_before = session.done_by_id();
  JournalWriter journal(session.directory().journal_path(session.job().shard.index),
                        JournalKind::enumerate, session.job().board.squares());
  StopControl stop(session.job().caps);
  SessionResult out;
  out.report = run_enumerate(session.job(), o, journal, stop);
  out.cleaned = session.recovery().cleaned;
  session.finish(out.report);
  return out;
}

}  // namespace knightstour::test
