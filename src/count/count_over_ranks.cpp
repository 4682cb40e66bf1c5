#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "count_jobs.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/count/run_count.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/frontier_run/ranked_journal.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour::count_detail {

namespace fs = std::filesystem;

namespace {

// A count over N ranks keeps its run in DIR/rank-<r> for each rank r (an ordinary frontier
// run directory holding that rank's share of every checkpoint; RankedJournal keeps the
// ranks in step) and DIR/ranks.json, which says N: it resumes under the same N only.

// Runs `setup` on every rank; when it failed on any, throws on every rank the first failing
// rank's error, so that rank 0 reports it and all of them leave together (one rank leaving
// alone would leave the others waiting for it in the next collective call).
template <class F>
auto on_every_rank(Ranks& ranks, F&& setup) -> decltype(setup()) {
  std::optional<decltype(setup())> out;
  std::string error;
  char kind = 0;  // 1: a usage error, 2: any other
  try {
    out.emplace(setup());
  } catch (const UsageError& e) {
    error = e.what();
    kind = 1;
  } catch (const FormatError& e) {
    // A file refused (another job's, rank's or run's): bad input, which every rank now
    // reports alike, so that rank 0 says it once and all leave together (exit 2).
    error = e.what();
    kind = 1;
  } catch (const std::exception& e) {
    error = e.what();
    kind = 2;
  }
  constexpr std::size_t kText = 500;
  std::vector<std::byte> mine(kText + 1, std::byte{0});
  std::memcpy(mine.data(), error.data(), std::min(error.size(), kText - 1));
  mine[kText] = static_cast<std::byte>(kind);
  const std::vector<std::byte> all = ranks.all_gather(mine);
  for (int k = 0; k < ranks.size(); ++k) {
    const std::byte* at = all.data() + static_cast<std::size_t>(k) * (kText + 1);
    if (at[kText] == std::byte{0}) continue;
    std::string text(reinterpret_cast<const char*>(at));
    if (k != 0) text = "MPI rank " + std::to_string(k) + ": " + text;
    if (at[kText] == std::byte{1}) throw UsageError(text);
    throw IoError(text);
  }
  return std::move(*out);
}

}  // namespace

CountResult count_over_ranks(const CountRequest& asked) {
  Ranks& ranks = *asked.ranks;
  const fs::path top = *asked.run_dir;
  CountRequest mine = asked;
  mine.run_dir = run_layout::rank_dir(top, ranks.rank());
  const std::string n = std::to_string(ranks.size());
  if (asked.resume) {
    ResumedFrontier resumed = on_every_rank(ranks, [&] {
      const auto counted = read_ranked_run(top);
      if (!counted) {
        std::string why;
        if (fs::exists(run_layout::manifest_path(top))) {
          const RunManifest m = read_manifest(top);
          why = FrontierRunDir::share_refusal(top, m).value_or(
              top.string() + " holds a count of one process: resume it without mpirun");
        }
        throw UsageError(why.empty() ? top.string() + " holds no count over MPI ranks" : why);
      }
      if (counted->ranks != ranks.size()) {
        throw UsageError("the run in " + top.string() + " is counted over " +
                         std::to_string(counted->ranks) + " MPI ranks, not " + n +
                         ": resume it with mpirun -np " + std::to_string(counted->ranks));
      }
      check_ranked_top(top, counted->ranks);
      RunDirectory locked = RunDirectory::open(*mine.run_dir);
      const RunManifest m = read_manifest(*mine.run_dir);
      check_resumable(m.method, mine, *mine.run_dir);
      if (m.method == Method::frontier) {
        check_rank_share(*mine.run_dir, read_frontier_manifest(*mine.run_dir), *counted,
                         ranks.rank());
      }
      return open_frontier(mine, *mine.run_dir, std::move(locked));
    });
    const bool done = resumed.run.manifest().status == RunStatus::complete;
    CountResult res = ranks.any_bits(done ? 0u : 1u) == 0
                          ? finished_frontier(resumed.run.dir(), resumed.run.manifest(),
                                              resumed.run.request(), resumed.plan.method)
                          : count_frontier(mine, resumed.plan, std::move(resumed.run));
    res.run_dir = top;
    std::get<FrontierStatistics>(res.statistics).ranks = ranks.size();  // also when read back
    return res;
  }
  const CountRequest r = request_with_defaults(mine);
  const FrontierPlan plan = plan_frontier(r, choose_method(r));
  // Every rank's directory names rank 0's run id, so that a share of another run is refused.
  std::string id = ranks.rank() == 0 ? FrontierRunDir::new_run_id() : std::string(16, '0');
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), id.data(), 16);
  const std::vector<std::byte> all = ranks.all_gather(bytes);
  id.assign(reinterpret_cast<const char*>(all.data()), 16);
  FrontierRunDir run = on_every_rank(ranks, [&] {
    if (ranks.rank() == 0 &&
        (fs::exists(top / run_layout::kRanksFile) || fs::exists(run_layout::manifest_path(top)))) {
      throw UsageError(top.string() +
                       " already holds a run; add $resume to continue it, or choose another "
                       "directory");
    }
    FrontierManifest base;
    base.provenance = r.provenance;
    base.caps.time_limit = r.caps.time_limit;
    base.frontier.rank = ranks.rank();
    base.frontier.ranks = ranks.size();
    base.frontier.run_id = id;
    FrontierRunDir created =
        FrontierRunDir::create(*r.run_dir, plan.request, base, plan.checkpoint_seconds);
    if (ranks.rank() == 0) {
      write_ranked_run(top, {ranks.size(), id});
    }
    return created;
  });
  CountResult res = count_frontier(r, plan, std::move(run));
  res.run_dir = top;
  return res;
}

}  // namespace knightstour::count_detail
