#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>

#include "knightstour/frontier/frontier_job.hpp"

namespace knightstour {

// A frontier count's run directory: what is counted (frontier.json), the counts of finished
// sweeps (also in frontier.json) and the running sweep's last checkpoint (checkpoint.bin,
// see checkpoint.hpp). Every file is replaced atomically, so kill -9 at any moment leaves a
// directory that resumes: from the last checkpoint, or from the start of the sweep.
class FrontierRunDir : public FrontierJournal {
 public:
  static constexpr const char* kJobFile = "frontier.json";
  static constexpr const char* kCheckpointFile = "checkpoint.bin";

  // A new run for `request`; refuses a directory that already holds a run (UsageError).
  static FrontierRunDir create(const std::filesystem::path& dir, const FrontierRequest& request,
                               double checkpoint_seconds);
  // The run in `dir`, to resume; UsageError when there is none, FormatError when damaged.
  static FrontierRunDir open(const std::filesystem::path& dir, double checkpoint_seconds);
  // Whether `dir` holds a frontier run (its job file).
  static bool holds_run(const std::filesystem::path& dir);

  const FrontierRequest& request() const { return request_; }
  const std::filesystem::path& dir() const { return dir_; }
  int checkpoints_written() const { return checkpoints_; }
  std::uint64_t checkpoint_bytes() const { return checkpoint_bytes_; }

  std::optional<BigCount> finished(int sweep) override;
  void finish(int sweep, const BigCount& count) override;
  std::optional<FrontierState> saved(int sweep) override;
  bool has_saved(int sweep) override;
  void after_step(int sweep, const FrontierState& state) override;

 private:
  FrontierRunDir(std::filesystem::path dir, FrontierRequest request, double checkpoint_seconds);
  void write_job() const;

  std::filesystem::path dir_;
  FrontierRequest request_;
  double checkpoint_seconds_;
  std::map<int, BigCount> finished_;
  std::chrono::steady_clock::time_point last_save_;
  int checkpoints_ = 0;
  std::uint64_t checkpoint_bytes_ = 0;
};

}  // namespace knightstour
