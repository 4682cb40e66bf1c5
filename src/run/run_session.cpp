#include "knightstour/run/run_session.hpp"

#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/plan/prefix_plan.hpp"

namespace knightstour {

namespace {

JobSpec validated(const RunRequest& r) {
  JobSpec job = r.job;
  if (!r.resume) resolve(job);  // a resume first takes defaults from the manifest
  return job;
}

RunDirectory open_directory(const RunRequest& r) {
  return r.resume ? RunDirectory::open(r.dir) : RunDirectory::create(r.dir);
}

std::uint64_t count_files(const std::filesystem::path& dir, int shard) {
  std::uint64_t n = 0;
  const std::string prefix = "tours-" + std::to_string(shard) + "-";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.find(".tmp") == std::string::npos) ++n;
  }
  return n;
}

}  // namespace

RunSession::RunSession(RunRequest request)
    : job_(validated(request)), dir_(open_directory(request)) {
  RunManifest asked;
  asked.command = request.command;
  if (request.resume) {
    const RunManifest old = read_manifest(dir_.dir());
    // Options left out on the command line are taken from the manifest.
    if (job_.split_depth < 0) job_.split_depth = old.split_depth;
    if (!request.format && request.command == "enumerate" && old.command == "enumerate") {
      request.format = parse_tour_format(old.tour_format);
    }
    if (!request.compression && request.command == "enumerate" && old.command == "enumerate") {
      request.compression = parse_compression(old.compression);
    }
    resolve(job_);
    describe_job(job_, asked);
    if (request.command == "enumerate") {
      asked.tour_format = to_string(request.format.value_or(TourFormat::npy));
      asked.compression = to_string(request.compression.value_or(Compression::none));
    }
    const auto diff = old.differences(asked);
    if (!diff.empty()) {
      std::string list;
      for (const auto& d : diff) list += (list.empty() ? "" : "; ") + d;
      throw UsageError("cannot resume " + dir_.dir().string() +
                       ": it was started with different parameters (manifest vs now): " + list);
    }
    manifest_ = old;
  } else {
    resolve(job_);
    describe_job(job_, asked);
    if (request.command == "enumerate") {
      asked.tour_format = to_string(request.format.value_or(TourFormat::npy));
      asked.compression = to_string(request.compression.value_or(Compression::none));
    }
    manifest_ = asked;
    manifest_.created = utc_now_iso8601();
  }
  const PrefixPlan plan(job_.board, job_.roots(), job_.mode, job_.split_depth);
  plan_size_ = plan.size();
  // Informational fields describe this session.
  manifest_.version = KNIGHTSTOUR_VERSION;
  manifest_.threads = job_.threads;
  manifest_.caps = job_.caps;
  manifest_.symmetry = job_.symmetry;
  manifest_.part_size = request.part_size;
  manifest_.checkpoint_seconds = request.checkpoint_seconds;
  manifest_.prefixes_in_plan = plan.size();
  manifest_.prefixes = 0;
  for (std::size_t id = 0; id < plan.size(); ++id)
    manifest_.prefixes += job_.shard.contains(id) ? 1 : 0;
  manifest_.status = "incomplete";
  manifest_.updated = utc_now_iso8601();
  if (request.resume) recovery_ = dir_.recover(manifest_);
  // Every journaled prefix must be a prefix of this plan, in this shard, under its id.
  for (const auto& r : recovery_.records) {
    if (r.id >= plan.size() || !job_.shard.contains(r.id)) {
      throw FormatError(dir_.journal_path(job_.shard.index).string() + ": prefix id " +
                        std::to_string(r.id) + " is not in this run's plan");
    }
    const auto p = plan[r.id];
    if (path_name(job_.board, p.data(), static_cast<int>(p.size())) != r.squares) {
      throw FormatError(dir_.journal_path(job_.shard.index).string() + ": prefix " +
                        std::to_string(r.id) + " is " + r.squares + " in the journal but " +
                        path_name(job_.board, p.data(), static_cast<int>(p.size())) +
                        " in the plan");
    }
  }
  write_manifest(dir_.dir(), manifest_);
}

std::vector<std::optional<JournalRecord>> RunSession::done_by_id() const {
  std::vector<std::optional<JournalRecord>> out(plan_size_);
  for (const auto& r : recovery_.records) out[r.id] = r;
  return out;
}

void RunSession::finish(const RunTotals& t) {
  manifest_.status = t.complete() ? "complete" : "incomplete";
  manifest_.stop_reason = t.complete() ? "" : describe(t.stop_reason);
  manifest_.prefixes = t.shard_prefixes;
  manifest_.prefixes_done = t.prefixes_done;
  manifest_.tours = t.tours;
  manifest_.closed_tours = t.closed;
  manifest_.nodes = t.journaled_nodes;
  manifest_.tour_files =
      manifest_.command == "enumerate" ? count_files(dir_.dir(), job_.shard.index) : 0;
  manifest_.updated = utc_now_iso8601();
  manifest_.seconds += t.seconds;
  manifest_.sessions += 1;
  write_manifest(dir_.dir(), manifest_);
}

}  // namespace knightstour
