#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "knightstour/exec/sink.hpp"
#include "knightstour/io/tour_file_writer.hpp"

namespace knightstour {

// Opens the next part file of a run (its name and place are the run directory's business).
// Thread-safe.
class PartFiles {
 public:
  virtual ~PartFiles() = default;
  virtual std::unique_ptr<TourFileWriter> open_part() = 0;
};

struct TourFileOptions {
  std::uint64_t part_size = std::uint64_t{1} << 30;  // bytes; a part closes at a prefix boundary
  double checkpoint_seconds = 60;  // a part also closes after this long, so a crash loses little
};

// What a tour-file sink wrote this session (finished files only).
struct TourFileStats {
  std::uint64_t files = 0;
  std::uint64_t tours = 0;
  std::uint64_t bytes = 0;
};

// Writes every tour into part files, one open part per worker thread (no lock per tour,
// memory bounded by one buffer per thread); a mirror image's tours are the searched tours
// mapped through the symmetry. A prefix is recorded only once the part holding its tours is
// finished (fsync, rename): after a crash at any instant, recorded prefixes and finished
// parts agree. Write failures (disk full, size limit) throw IoError.
class TourFileSink final : public Sink {
 public:
  TourFileSink(PartFiles& parts, TourFileOptions options);
  ~TourFileSink() override;

  bool run(const WorkItem& item, ItemContext& context) override;
  void end(Recorder& recorder, bool failed) override;
  std::string status() const override;

  TourFileStats stats() const;

 private:
  struct Thread;
  struct Threads;
  void commit(Thread& thread, Recorder& recorder);

  PartFiles& parts_;
  TourFileOptions options_;
  std::unique_ptr<Threads> threads_;
  std::atomic<std::uint64_t> files_{0}, tours_{0}, bytes_{0};
};

}  // namespace knightstour
