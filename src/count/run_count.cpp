#include "knightstour/count/run_count.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "count_jobs.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/ranks.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

using namespace count_detail;

namespace {

// A new run directory for a refusal to take back: what the count makes in `dir` when it
// refuses the job only once the engine has looked at it (a UsageError) is removed, so that a
// refused command leaves nothing on disk and the same directory takes the next command.
class NewRunDir {
 public:
  explicit NewRunDir(const std::filesystem::path& dir) : dir_(dir) {
    std::error_code ec;
    absent_ = !std::filesystem::exists(dir, ec) && !ec;
    empty_ =
        !absent_ && std::filesystem::is_directory(dir, ec) && std::filesystem::is_empty(dir, ec);
  }
  void take_back() const {
    std::error_code ec;
    // A run that journaled a sweep or a checkpoint did work: that is kept, whatever came after.
    if (std::filesystem::exists(dir_ / run_layout::kSweepJournal, ec)) return;
    if (absent_) {
      std::filesystem::remove_all(dir_, ec);
    } else if (empty_) {
      for (const auto& entry : std::filesystem::directory_iterator(dir_, ec))
        std::filesystem::remove_all(entry.path(), ec);
    }
  }

 private:
  std::filesystem::path dir_;
  bool absent_ = false;
  bool empty_ = false;
};

// The run's time over its sessions, from its manifest (a count over MPI ranks: rank 0's, whose
// sessions are every rank's), once the count is done with it.
CountResult with_run_time(CountResult r) {
  if (!r.run_dir) return r;
  try {
    const std::filesystem::path dir = run_layout::holds_ranked_shares(*r.run_dir)
                                          ? run_layout::rank_dir(*r.run_dir, 0)
                                          : *r.run_dir;
    const RunManifest m = read_manifest(dir);
    r.run_time = CountResult::RunTime{m.seconds, m.cpu_seconds, m.sessions};
  } catch (const std::exception&) {
    // The counts are printed without it: the time is only said.
  }
  return r;
}

CountResult run_count_once(const CountRequest& asked);

// The counts every output derives alike, once (docs/formats.md, "Three counts").
// (Not of a shard's share: the enumerator's shards may hold a path and its reverse apart.)
CountResult with_derived_counts(CountResult r) {
  const auto* dfs = std::get_if<DfsStatistics>(&r.statistics);
  const bool share = r.sharded || (dfs != nullptr && dfs->shard.count > 1);
  if (r.complete && r.all_starts && !r.closed && !r.end && !share &&
      r.counts == CountResult::Counts::exact) {
    r.tours_undirected = undirected_tours(r.tours, r.shape.squares(), r.modulus);
  }
  return r;
}

}  // namespace

CountResult run_count(const CountRequest& asked) {
  return with_derived_counts(with_run_time(run_count_once(asked)));
}

namespace {

CountResult run_count_once(const CountRequest& asked) {
  refuse_first(check(asked));
  if (several_ranks(asked.ranks) != nullptr && asked.run_dir) {
    return count_over_ranks(asked);
  }
  if (asked.resume) return resume(asked);
  const CountRequest r = request_with_defaults(asked);
  const MethodChoice choice = choose_method(r);
  if (choice.method == Method::dfs) return count_dfs(r, choice, nullptr);
  const FrontierPlan plan = plan_frontier(r, choice);  // before anything is created
  std::optional<FrontierRunDir> run;
  std::optional<NewRunDir> made;
  if (r.run_dir) {
    FrontierManifest base;
    base.provenance = r.provenance;
    base.caps.time_limit = r.caps.time_limit;
    made.emplace(*r.run_dir);
    run.emplace(FrontierRunDir::create(*r.run_dir, plan.request, base, plan.checkpoint_seconds));
  }
  try {
    return count_frontier(r, plan, std::move(run));
  } catch (const UsageError&) {
    if (made) made->take_back();
    throw;
  }
}

}  // namespace

BigCount undirected_tours(const BigCount& directed_over_all_starts, std::int64_t squares,
                          std::uint64_t modulus) {
  if (squares == 1) return directed_over_all_starts;
  return modulus != 0 ? half_residue(directed_over_all_starts, modulus)
                      : directed_over_all_starts / 2;
}

CountRequest request_with_defaults(CountRequest r) {
  if (!r.shape) throw UsageError("missing BOARD, e.g. 6x6 or 5");
  if (!r.all_starts.value_or(false) && r.prefix.empty()) {
    if (!r.closed.value_or(false)) {
      throw UsageError(
          "give a start square with $start (e.g. $start a1), a $prefix, or $all_starts");
    }
    r.prefix = {0};
  }
  return r;
}

}  // namespace knightstour
