#include "knightstour/frontier_run/frontier_run_dir.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/posix_file.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

CheckpointJob FrontierRunDir::job_of(const FrontierManifest& m) {
  const FrontierRequest r = request_of(m);
  const std::int64_t start = r.every_length                    ? kEveryLengthStarts
                             : r.start                         ? *r.start
                             : r.total_only                    ? kTotalOnlyStarts
                             : r.grid == GridMethod::end_pairs ? kEndPairStarts
                                                               : -1;
  CheckpointJob job{r.shape.rows, r.shape.cols, r.closed, start};
  job.rank = m.frontier.rank;
  job.ranks = m.frontier.ranks;
  job.run_id = m.frontier.run_id.empty() ? 0 : std::stoull(m.frontier.run_id, nullptr, 16);
  return job;
}

std::string FrontierRunDir::new_run_id() {
  std::random_device device;
  std::uint64_t id = 0;
  while (id == 0) id = (std::uint64_t{device()} << 32) ^ device();  // 0 means "none"
  return hex64(id);
}

std::optional<std::string> FrontierRunDir::share_refusal(const fs::path& dir,
                                                         const RunManifest& common) {
  if (common.method != Method::frontier) return std::nullopt;
  const FrontierManifest m = read_frontier_manifest(dir);
  fs::path share = dir.lexically_normal();
  if (share.filename().empty()) share = share.parent_path();
  fs::path top = share.parent_path();
  if (top.empty()) top = ".";
  std::error_code ec;
  const bool beside_ranks = fs::exists(top / run_layout::kRanksFile, ec);
  CheckpointJob owner = job_of(m);
  if (owner.ranks <= 1) {
    // A rank's directory written before owners were recorded says nothing of its rank: its
    // name and the ranks.json beside it do.
    const auto rank = run_layout::parse_rank_dir_name(share.filename().string());
    if (!rank || !beside_ranks) return std::nullopt;
    owner.rank = *rank;
    try {
      owner.ranks = read_ranked_run(top).value_or(RankedRun{}).ranks;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  const std::string n = std::to_string(owner.ranks);
  const std::string whole =
      beside_ranks ? top.string() : "DIR (the directory holding ranks.json and the rank-* folders)";
  return dir.string() + " holds " + describe_owner(owner) +
         ", not a count: resume the whole run with mpirun -np " + n +
         " knightstour count $run_dir " + whole + " $resume";
}

FrontierRequest FrontierRunDir::request_of(const FrontierManifest& m) {
  FrontierRequest r;
  r.shape = {m.rows, m.cols};
  r.closed = m.closed_only;
  r.total_only = m.frontier.total_only;
  r.every_length = m.frontier.every_length;
  r.modulus = m.frontier.modulus;
  if (m.frontier.end_pairs) {
    r.grid = GridMethod::end_pairs;
    r.shard = m.frontier.shard;
  }
  if (!m.all_starts) {
    const RowCol rc = parse_row_col(r.shape, m.prefix.at(0), "manifest start square");
    r.start = std::int64_t{rc.row} * m.cols + rc.col;
  }
  return r;
}

FrontierRunDir::FrontierRunDir(RunDirectory dir, FrontierManifest manifest,
                               double checkpoint_seconds, std::vector<CheckpointRecord> records)
    : dir_(std::move(dir)),
      manifest_(std::move(manifest)),
      request_(request_of(manifest_)),
      job_(job_of(manifest_)),
      journal_(dir_.dir() / run_layout::kSweepJournal, frontier_job_key(manifest_)),
      records_(std::move(records)),
      checkpoint_seconds_(checkpoint_seconds),
      last_save_(std::chrono::steady_clock::now()) {
  manifest_.frontier.checkpoint_seconds = checkpoint_seconds;
}

FrontierManifest FrontierRunDir::new_manifest(const FrontierRequest& request,
                                              const FrontierManifest& base) {
  FrontierManifest m = base;
  m.method = Method::frontier;
  m.command = Command::count;
  m.rows = request.shape.rows;
  m.cols = request.shape.cols;
  m.all_starts = !request.start;
  m.prefix.clear();
  if (request.start) {
    m.prefix = {square_name(static_cast<int>(*request.start / m.cols),
                            static_cast<int>(*request.start % m.cols))};
  }
  m.closed_only = request.closed;
  m.status = RunStatus::incomplete;
  const FrontierProgress owner = base.frontier;
  m.frontier = {};
  m.frontier.rank = owner.rank;
  m.frontier.ranks = owner.ranks;
  m.frontier.run_id = owner.run_id.empty() ? new_run_id() : owner.run_id;
  m.frontier.total_only = request.total_only;
  m.frontier.every_length = request.every_length;
  m.frontier.modulus = request.modulus;
  m.frontier.end_pairs = request.grid == GridMethod::end_pairs;
  m.frontier.shard = request.shard;
  m.frontier.sweeps_planned = planned_sweeps(request);
  m.version = KNIGHTSTOUR_VERSION;
  m.created = m.updated = utc_now_iso8601();
  m.sessions = 1;
  return m;
}

void FrontierRunDir::record_outcome(FrontierManifest& m, const FrontierReport& report) {
  m.stop_reason = report.complete ? StopReason::none : report.stop_reason;
  if (!report.complete) return;
  m.status = RunStatus::complete;
  m.frontier.tours = report.tours.str();
  m.frontier.closed_tours = report.closed_tours.str();
  m.frontier.closed_cycles = report.cycles.str();
  m.frontier.tours_by_start.clear();
  for (const auto& c : report.tours_by_start) m.frontier.tours_by_start.push_back(c.str());
}

FrontierRunDir FrontierRunDir::create(const fs::path& dir, const FrontierRequest& request,
                                      const FrontierManifest& base, double checkpoint_seconds) {
  FrontierManifest m = new_manifest(request, base);
  RunDirectory locked =
      RunDirectory::create(dir, "add $resume to continue it, or choose another directory");
  FrontierRunDir run(std::move(locked), std::move(m), checkpoint_seconds);
  run.write();
  return run;
}

FrontierRunDir FrontierRunDir::open(RunDirectory dir, FrontierRunFiles files,
                                    double checkpoint_seconds) {
  FrontierManifest& manifest = files.manifest;
  const bool finished = manifest.status == RunStatus::complete;
  if (!finished) {
    manifest.updated = utc_now_iso8601();
    ++manifest.sessions;
  }
  FrontierRunDir run(std::move(dir), std::move(manifest), checkpoint_seconds,
                     std::move(files.journal.checkpoints));
  run.finished_when_opened_ = finished;
  if (!finished) run.remove(files.leftovers);
  return run;
}

fs::path FrontierRunDir::checkpoint_path(int sweep) const {
  return dir() / run_layout::checkpoint_name(sweep);
}

fs::path FrontierRunDir::staged_path(int sweep) const {
  return dir() / run_layout::staged_checkpoint_name(sweep);
}

void FrontierRunDir::write() const { write_manifest(dir(), manifest_); }

void FrontierRunDir::remove(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    std::error_code ec;
    if (fs::remove_all(dir() / name, ec) > 0) {
      spdlog::debug("removed {} (nothing reads it again)", name);
    }
  }
}

void FrontierRunDir::check_recorded(const fs::path& path, const CheckpointHeader& header) const {
  if (std::none_of(records_.begin(), records_.end(),
                   [&](const CheckpointRecord& r) { return r.records(header); })) {
    throw FormatError(path.string() + ": is a checkpoint that no line of " +
                      run_layout::kSweepJournal + " records; delete it to count sweep " +
                      std::to_string(header.sweep) + " from its start");
  }
}

fs::path FrontierRunDir::fresh_spill_dir() {
  fs::path spill = dir() / run_layout::kSpillDir;
  remove_spill_dir();
  std::error_code ec;
  fs::create_directories(spill, ec);
  if (ec) throw IoError("cannot create " + spill.string() + ": " + ec.message());
  return spill;
}

void FrontierRunDir::remove_spill_dir() {
  std::error_code ec;
  fs::remove_all(dir() / run_layout::kSpillDir, ec);
}

void FrontierRunDir::end_session(const FrontierReport& report, int threads, double seconds,
                                 double cpu_seconds) {
  if (finished_when_opened_) return;
  FrontierManifest& m = manifest_;
  m.threads = threads;
  m.seconds += seconds;
  m.cpu_seconds += cpu_seconds;
  m.updated = utc_now_iso8601();
  record_outcome(m, report);
  journal_.sync();
  write();
  if (report.complete) {
    // The manifest holds every count now: the checkpoints and the journal are read no more.
    std::vector<std::string> done = {run_layout::kSweepJournal};
    for (const auto& entry : fs::directory_iterator(dir())) {
      const std::string name = entry.path().filename().string();
      if (run_layout::parse_any_checkpoint_name(name) || run_layout::is_temp_name(name))
        done.push_back(name);
    }
    remove(done);
  }
}

std::optional<BigCount> FrontierRunDir::finished(int sweep) {
  const auto& done = manifest_.frontier.finished;
  const auto it = done.find(sweep);
  if (it == done.end()) return std::nullopt;
  return BigCount::parse(it->second);
}

void FrontierRunDir::finish(int sweep, const BigCount& count) {
  // One journal line, not a new manifest: a run of thousands of short sweeps would spend its
  // time rewriting the manifest (end_session writes it once).
  journal_.finished(sweep, count.str());
  manifest_.frontier.finished[sweep] = count.str();
  manifest_.updated = utc_now_iso8601();
  std::error_code ignored;
  fs::remove(checkpoint_path(sweep), ignored);
  fs::remove(staged_path(sweep), ignored);
  last_save_ = std::chrono::steady_clock::now();
}

void FrontierRunDir::drop(int sweep) {
  std::error_code ignored;
  fs::remove(checkpoint_path(sweep), ignored);
  fs::remove(staged_path(sweep), ignored);
  last_save_ = std::chrono::steady_clock::now();
}

std::optional<int> FrontierRunDir::saved_step(int sweep) {
  return step_in(checkpoint_path(sweep), sweep);
}

std::optional<int> FrontierRunDir::staged_step(int sweep) {
  return step_in(staged_path(sweep), sweep);
}

std::optional<int> FrontierRunDir::step_in(const fs::path& path, int sweep) {
  const auto header = read_checkpoint_header(path, job_);
  if (header && header->sweep != sweep) {
    throw FormatError("checkpoint " + path.string() + " is damaged (it holds sweep " +
                      std::to_string(header->sweep) + "); delete it to start the sweep again");
  }
  if (!header) return std::nullopt;
  return header->next_step;
}

bool FrontierRunDir::has_saved(int sweep) { return saved_step(sweep).has_value(); }

bool FrontierRunDir::saved(int sweep, FrontierState& into) {
  if (!has_saved(sweep)) return false;
  const auto path = checkpoint_path(sweep);
  if (const auto header = read_checkpoint_header(path, job_)) check_recorded(path, *header);
  load_checkpoint(path, job_, sweep, into);
  spdlog::info("resuming sweep {} at step {} from {}", sweep, next_step_of(into),
               path.filename().string());
  return true;
}

bool FrontierRunDir::save_due() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - last_save_).count() >=
         checkpoint_seconds_;
}

void FrontierRunDir::after_step(int sweep, const FrontierState& state) {
  if (save_due()) save(sweep, state);
}

std::optional<int> FrontierRunDir::keep(int sweep, const FrontierState& state) {
  if (saved_step(sweep) != next_step_of(state)) save(sweep, state);
  return saved_step(sweep);
}

void FrontierRunDir::save(int sweep, const FrontierState& state) {
  write_state(checkpoint_path(sweep), sweep, state);
  last_save_ = std::chrono::steady_clock::now();
}

void FrontierRunDir::stage(int sweep, const FrontierState& state) {
  write_state(staged_path(sweep), sweep, state);
}

void FrontierRunDir::commit_staged(int sweep) {
  durable_rename(staged_path(sweep), checkpoint_path(sweep));
  last_save_ = std::chrono::steady_clock::now();
}

void FrontierRunDir::keep_step(int sweep, std::optional<int> step) {
  std::error_code ignored;
  if (step && staged_step(sweep) == step && saved_step(sweep) != step) {
    durable_rename(staged_path(sweep), checkpoint_path(sweep));
    spdlog::debug("sweep {}: the staged checkpoint (step {}) committed", sweep, *step);
  }
  fs::remove(staged_path(sweep), ignored);
  if (!step || saved_step(sweep) != step) fs::remove(checkpoint_path(sweep), ignored);
}

void FrontierRunDir::write_state(const fs::path& path, int sweep, const FrontierState& state) {
  const auto now = std::chrono::steady_clock::now();
  // Recorded before it takes its name: a checkpoint no line records is never resumed from.
  auto record = [&](const CheckpointHeader& h) {
    const CheckpointRecord r{h.sweep, h.next_step, h.classes, h.data_checksum};
    journal_.checkpoint(r);
    records_.push_back(r);
  };
  const std::uint64_t bytes = write_checkpoint(path, job_, sweep, state, record).bytes;
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - now).count();
  // Small checkpoints (short sweeps, tests) are not worth a line each.
  spdlog::log(took >= 1 ? spdlog::level::info : spdlog::level::debug,
              "checkpoint: sweep {} after step {}, {:.2f} GiB in {:.1f} s", sweep,
              next_step_of(state), static_cast<double>(bytes) / (1024.0 * 1024 * 1024), took);
}

std::optional<RankedRun> read_ranked_run(const fs::path& dir) {
  std::ifstream in(dir / run_layout::kRanksFile);
  if (!in) return std::nullopt;
  try {
    const auto j = nlohmann::json::parse(in);
    // A whole number of ranks a run can have (as a manifest's owner): not wrapped to fit.
    const auto& ranks = j.at("ranks");
    const bool whole = ranks.is_number_unsigned() && ranks.get<std::uint64_t>() >= 2 &&
                       ranks.get<std::uint64_t>() <= 1000000;
    RankedRun run{whole ? ranks.get<int>() : 0, j.value("run_id", std::string())};
    if (run.ranks >= 2) return run;
  } catch (const nlohmann::json::exception&) {
  }
  throw FormatError((dir / run_layout::kRanksFile).string() +
                    " is damaged: it should say how many MPI ranks count the run");
}

void write_ranked_run(const fs::path& dir, const RankedRun& run) {
  write_file_atomically(dir / run_layout::kRanksFile,
                        nlohmann::json{{"ranks", run.ranks}, {"run_id", run.run_id}}.dump() + "\n");
}

void check_rank_share(const fs::path& dir, const FrontierManifest& m, const RankedRun& run,
                      int rank) {
  const FrontierProgress& f = m.frontier;
  if (f.run_id.empty() && run.run_id.empty() && f.ranks == 1) return;  // before run ids
  if (f.ranks != run.ranks || f.rank != rank) {
    throw UsageError(dir.string() + " holds " + describe_owner(FrontierRunDir::job_of(m)) +
                     ", not rank " + std::to_string(rank) + "'s share of the run over " +
                     std::to_string(run.ranks) +
                     " ranks: put back the run's own rank-* directories, or count it again in "
                     "a new directory");
  }
  if (f.run_id != run.run_id) {
    throw UsageError(dir.string() + " belongs to another run (run id " + f.run_id + ", not " +
                     run.run_id +
                     "): put back the run's own rank-* directories, or count it again in a new "
                     "directory");
  }
}

}  // namespace knightstour
