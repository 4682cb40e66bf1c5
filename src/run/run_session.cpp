#include "knightstour/run/run_session.hpp"

#include <stdexcept>

#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/run_layout.hpp"
#include "knightstour/run/verify.hpp"

namespace knightstour {

namespace {

std::string squares_of(const Plan& plan, std::size_t id) {
  const auto p = plan.prefixes()[id];
  return path_name(plan.board(), p.data(), static_cast<int>(p.size()));
}

// The "what was asked" part of a manifest for a resolved plan.
RunManifest asked(const SessionRequest& r, const Plan& plan) {
  RunManifest m;
  m.command = r.command;
  m.describe(plan.request());
  if (r.command == Command::enumerate) {
    m.tour_format = r.format.value_or(TourFormat::npy);
    m.compression = r.compression.value_or(Compression::none);
  }
  return m;
}

// Refuses a run the checks every reader shares refuse (verify_run_directory, bookkeeping
// only): a run damaged otherwise than by a crash is neither resumed nor read.
void check_as_verify_does(const std::filesystem::path& dir) {
  const VerifyReport check = verify_run_directory(dir, {/*read_tours=*/false});
  if (!check.ok) {
    throw FormatError(dir.string() + ": " + check.problem + " (knightstour verify " + dir.string() +
                      " says the same); a run damaged otherwise than by a crash is not resumed: "
                      "count it again in a new directory");
  }
}

}  // namespace

RunSession::RunSession(SessionRequest r) {
  if (!r.resume) {
    plan_.emplace(resolve(r.request, r.threads));  // a new run is validated before its directory
    dir_.emplace(RunDirectory::create(r.dir));
    manifest_ = asked(r, *plan_);
    manifest_.created = utc_now_iso8601();
  } else {
    check_readable_run_path(r.dir);
    if (!std::filesystem::exists(run_layout::manifest_path(r.dir))) {
      dir_.emplace(RunDirectory::open(r.dir));  // says what is missing
    }
    // A finished run is only read: no lock, nothing written (it may be a record on a
    // read-only disk). Any other is locked first, looked at then, and recovered from what a
    // crash left.
    if (read_manifest(r.dir).status != RunStatus::complete) dir_.emplace(RunDirectory::open(r.dir));
    const RunManifest old = read_manifest(r.dir);
    if (old.method != Method::dfs) {
      throw UsageError(r.dir.string() + " holds a count by the " + to_string(old.method) +
                       " method, not a run of the enumerator; resume it with knightstour count "
                       "$run_dir " +
                       r.dir.string() + " $resume");
    }
    if (old.sample) {
      throw UsageError(r.dir.string() +
                       " holds a sample (enumerate $sample), written whole: nothing to resume");
    }
    // Options left out on the command line are taken from the manifest.
    if (!r.request.split_depth) r.request.split_depth = old.split_depth;
    if (r.command == Command::enumerate && old.command == Command::enumerate) {
      if (!r.format) r.format = old.tour_format;
      if (!r.compression) r.compression = old.compression;
    }
    plan_.emplace(resolve(r.request, r.threads));
    const auto diff = old.differences(asked(r, *plan_));
    if (!diff.empty()) {
      std::string list;
      for (const auto& d : diff) list += (list.empty() ? "" : "; ") + d;
      throw UsageError("cannot resume " + r.dir.string() +
                       ": it was started with different parameters (manifest vs now): " + list);
    }
    check_as_verify_does(r.dir);
    manifest_ = old;
    finished_when_opened_ = old.status == RunStatus::complete;
    if (finished_when_opened_) {
      // Checked whole: every prefix of the shard journaled, the totals its lines add up to.
      intact_ = read_committed(r.dir, old, old.shard.index, FileCheck::rows);
    }
  }
  path_ = r.dir;
  const Plan& plan = *plan_;
  // Informational fields describe this session.
  manifest_.version = KNIGHTSTOUR_VERSION;
  manifest_.provenance = r.provenance;
  manifest_.threads = r.threads;
  manifest_.caps = r.caps;
  manifest_.symmetry = plan.request().symmetry;
  manifest_.part_size = r.files.part_size;
  manifest_.checkpoint_seconds = r.files.checkpoint_seconds;
  manifest_.prefixes_in_plan = plan.prefixes().size();
  manifest_.prefixes = plan.shard_prefixes();
  manifest_.status = RunStatus::incomplete;
  manifest_.updated = utc_now_iso8601();
  if (intact_) {
    recovery_.records = std::move(intact_->records);
  } else if (r.resume) {
    recovery_ = dir_->recover(manifest_);
  }
  next_part_ = recovery_.next_part;
  // Every journaled prefix must be a prefix of this plan, in this shard, under its id.
  const auto journal = path_ / run_layout::journal_name(plan.shard().index);
  for (const auto& rec : recovery_.records) {
    if (rec.id >= plan.prefixes().size() || !plan.in_shard(rec.id)) {
      throw FormatError(journal.string() + ": prefix id " + std::to_string(rec.id) +
                        " is not in this run's plan");
    }
    if (squares_of(plan, rec.id) != rec.squares) {
      throw FormatError(journal.string() + ": prefix " + std::to_string(rec.id) + " is " +
                        rec.squares + " in the journal but " + squares_of(plan, rec.id) +
                        " in the plan");
    }
  }
  if (intact_) return;  // read only
  if (!finished_when_opened_) write_manifest(path_, manifest_);
  journal_ = std::make_unique<JournalWriter>(journal, journal_format(manifest_));
}

RunSession::~RunSession() = default;

std::vector<std::optional<PrefixResult>> RunSession::done_before() const {
  std::vector<std::optional<PrefixResult>> out(plan_->prefixes().size());
  for (const auto& rec : recovery_.records) {
    out[rec.id] = PrefixResult{rec.id,
                               rec.tours,
                               rec.closed,
                               rec.nodes,
                               rec.seconds,
                               rec.by_end,
                               rec.file == "-" ? "" : rec.file,
                               rec.file_rows,
                               rec.file_bytes};
  }
  return out;
}

void RunSession::record(std::span<const PrefixResult> results) {
  // A finished run is read, not searched: nothing is left to journal.
  if (!journal_) throw std::logic_error("a finished run's session was asked to journal prefixes");
  std::vector<JournalRecord> lines;
  for (const auto& r : results) {
    lines.push_back({r.id, squares_of(*plan_, r.id), r.tours, r.closed, r.nodes, r.seconds,
                     r.part.empty() ? "-" : r.part, r.part_rows, r.part_bytes, r.by_end});
  }
  // A tour file's prefixes are journaled when the file is published, which is rare (a part
  // of up to --part-size bytes): make that durable at once. Counts are synced at the end.
  journal_->append(lines, /*durable=*/manifest_.command == Command::enumerate);
}

void RunSession::sync() {
  if (journal_) journal_->sync();  // none in a run that was finished when opened
}

std::unique_ptr<TourFileWriter> RunSession::open_part() {
  const auto name = run_layout::tour_file_name(plan_->shard().index, next_part_.fetch_add(1),
                                               file_extension(format(), compression()));
  return std::make_unique<TourFileWriter>(path_ / name, plan_->board().shape(), format(),
                                          compression());
}

void RunSession::finish(const RunReport& t) {
  if (finished_when_opened_ && t.complete()) return;
  manifest_.status = t.complete() ? RunStatus::complete : RunStatus::incomplete;
  manifest_.stop_reason = t.complete() ? StopReason::none : t.stop_reason;
  manifest_.prefixes = t.shard_prefixes;
  manifest_.prefixes_done = t.prefixes_done;
  manifest_.tours = t.tours;
  manifest_.closed_tours = t.closed;
  manifest_.nodes = t.journaled_nodes;
  manifest_.tour_files = 0;
  for (const auto& e : std::filesystem::directory_iterator(path_)) {
    const auto file = run_layout::parse_tour_file_name(e.path().filename().string());
    if (file && file->shard == plan_->shard().index) ++manifest_.tour_files;
  }
  manifest_.updated = utc_now_iso8601();
  manifest_.seconds += t.seconds;
  manifest_.sessions += 1;
  manifest_.cpu_seconds += t.cpu_seconds;
  add_checked(manifest_.nodes_searched, t.nodes, "nodes searched");
  write_manifest(path_, manifest_);
}

}  // namespace knightstour
