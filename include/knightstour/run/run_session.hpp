#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "knightstour/exec/driver.hpp"
#include "knightstour/exec/ledger.hpp"
#include "knightstour/exec/tour_file_sink.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_directory.hpp"

namespace knightstour {

// What a count or enumerate command asks of a run directory.
struct SessionRequest {
  std::filesystem::path dir;
  bool resume = false;
  Command command = Command::count;
  Request request;  // a resume takes what is left out (the split depth) from the manifest
  int threads = 1;  // for the default split depth, and the manifest
  Caps caps;        // for the manifest
  std::optional<TourFormat> format;        // enumerate; default npy (or the manifest's)
  std::optional<Compression> compression;  // enumerate; default none (or the manifest's)
  TourFileOptions files;                   // enumerate
  Provenance provenance;                   // for the manifest
};

// One session on a run directory: creates it, or reopens it for --resume after checking that
// the request matches the manifest (a UsageError lists the differences) and undoing whatever
// an interrupted session left half done. It resolves the plan once, journals finished
// prefixes as the driver's ledger, names the part files of an enumerate run, and records the
// outcome in the manifest. Engines never see a file name.
class RunSession final : public Ledger, public PartFiles {
 public:
  explicit RunSession(SessionRequest request);
  ~RunSession() override;

  const Plan& plan() const { return *plan_; }
  const RunManifest& manifest() const { return manifest_; }
  const std::filesystem::path& dir() const { return path_; }
  // What recovery removed or dropped, for the log.
  const std::vector<std::string>& cleaned() const { return recovery_.cleaned; }
  TourFormat format() const { return manifest_.tour_format.value_or(TourFormat::npy); }
  Compression compression() const { return manifest_.compression.value_or(Compression::none); }
  TourFileOptions files() const { return {manifest_.part_size, manifest_.checkpoint_seconds}; }

  std::vector<std::optional<PrefixResult>> done_before() const override;
  void record(std::span<const PrefixResult> results) override;
  void sync() override;
  std::unique_ptr<TourFileWriter> open_part() override;

  // Records the outcome of the session in the manifest (atomically); of a run that was complete
  // when resumed, nothing (reading its counts again is no session).
  void finish(const RunReport& report);

 private:
  std::optional<Plan> plan_;
  std::filesystem::path path_;
  std::optional<RunDirectory> dir_;  // the lock, held unless the run is only read (intact_)
  // A finished run that reads whole: its journal, read without a lock; nothing is written.
  std::optional<CommittedJournal> intact_;
  RunManifest manifest_;
  RunDirectory::Recovery recovery_;
  std::unique_ptr<JournalWriter> journal_;
  std::atomic<std::uint64_t> next_part_{0};
  bool finished_when_opened_ = false;
};

}  // namespace knightstour
