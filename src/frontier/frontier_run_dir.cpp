#include "knightstour/frontier/frontier_run_dir.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/checkpoint.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

namespace {

constexpr int kFormat = 1;

std::filesystem::path job_path(const std::filesystem::path& dir) {
  return dir / FrontierRunDir::kJobFile;
}

}  // namespace

FrontierRunDir::FrontierRunDir(std::filesystem::path dir, FrontierRequest request,
                               double checkpoint_seconds)
    : dir_(std::move(dir)),
      request_(request),
      checkpoint_seconds_(checkpoint_seconds),
      last_save_(std::chrono::steady_clock::now()) {}

bool FrontierRunDir::holds_run(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(job_path(dir), ec);
}

FrontierRunDir FrontierRunDir::create(const std::filesystem::path& dir,
                                      const FrontierRequest& request, double checkpoint_seconds) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec)) {
    throw UsageError(dir.string() +
                     " is not empty; give a new directory, or --resume to continue the run in it");
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError("cannot create " + dir.string() + ": " + ec.message());
  FrontierRunDir run(dir, request, checkpoint_seconds);
  run.write_job();
  return run;
}

FrontierRunDir FrontierRunDir::open(const std::filesystem::path& dir, double checkpoint_seconds) {
  if (!holds_run(dir)) {
    throw UsageError(dir.string() + " holds no frontier run to resume (no " + kJobFile + ")");
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_small_file(job_path(dir)));
    if (j.at("format").get<int>() != kFormat || j.at("method") != "frontier") {
      throw FormatError("not a frontier run of format " + std::to_string(kFormat));
    }
    FrontierRequest request;
    request.shape = {j.at("rows").get<int>(), j.at("cols").get<int>()};
    request.closed = j.at("closed").get<bool>();
    if (!j.at("start").is_null()) request.start = j.at("start").get<std::int64_t>();
    FrontierRunDir run(dir, request, checkpoint_seconds);
    for (const auto& s : j.at("finished")) {
      run.finished_[s.at("sweep").get<int>()] = BigCount::parse(s.at("count").get<std::string>());
    }
    return run;
  } catch (const nlohmann::json::exception& e) {
    throw FormatError(job_path(dir).string() + " is damaged: " + e.what());
  } catch (const std::invalid_argument& e) {
    throw FormatError(job_path(dir).string() + " is damaged: " + e.what());
  }
}

void FrontierRunDir::write_job() const {
  nlohmann::json j;
  j["format"] = kFormat;
  j["method"] = "frontier";
  j["board"] = std::to_string(request_.shape.rows) + "x" + std::to_string(request_.shape.cols);
  j["rows"] = request_.shape.rows;
  j["cols"] = request_.shape.cols;
  j["closed"] = request_.closed;
  j["start"] = request_.start ? nlohmann::json(*request_.start) : nlohmann::json(nullptr);
  j["finished"] = nlohmann::json::array();
  for (const auto& [sweep, count] : finished_) {
    j["finished"].push_back({{"sweep", sweep}, {"count", count.str()}});
  }
  write_file_atomically(job_path(dir_), j.dump(2) + "\n");
}

std::optional<BigCount> FrontierRunDir::finished(int sweep) {
  const auto it = finished_.find(sweep);
  if (it == finished_.end()) return std::nullopt;
  return it->second;
}

void FrontierRunDir::finish(int sweep, const BigCount& count) {
  finished_[sweep] = count;
  write_job();
  if (has_saved(sweep)) {  // its sweep is done
    std::error_code ignored;
    std::filesystem::remove(dir_ / kCheckpointFile, ignored);
  }
  last_save_ = std::chrono::steady_clock::now();
}

bool FrontierRunDir::has_saved(int sweep) {
  const auto header = read_checkpoint_header(dir_ / kCheckpointFile);
  return header && header->sweep == sweep;
}

std::optional<FrontierState> FrontierRunDir::saved(int sweep) {
  const auto path = dir_ / kCheckpointFile;
  const auto header = read_checkpoint_header(path);
  if (!header || header->sweep != sweep) return std::nullopt;
  spdlog::info("resuming sweep {} at step {} from {} ({} classes)", sweep + 1, header->next_step,
               path.string(), header->classes);
  return load_checkpoint(path);
}

void FrontierRunDir::after_step(int sweep, const FrontierState& state) {
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_save_).count() < checkpoint_seconds_) return;
  const std::uint64_t bytes = write_checkpoint(dir_ / kCheckpointFile, sweep, state);
  ++checkpoints_;
  checkpoint_bytes_ += bytes;
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - now).count();
  // Small checkpoints (short sweeps, tests) are not worth a line each.
  spdlog::log(took >= 1 ? spdlog::level::info : spdlog::level::debug,
              "checkpoint: sweep {} after step {}, {:.2f} GiB in {:.1f} s", sweep + 1,
              state.next_step, static_cast<double>(bytes) / (1024.0 * 1024 * 1024), took);
  last_save_ = std::chrono::steady_clock::now();
}

}  // namespace knightstour
