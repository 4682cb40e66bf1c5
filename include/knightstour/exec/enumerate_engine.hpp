#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "knightstour/base/stop_control.hpp"
#include "knightstour/exec/run_totals.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/plan/job.hpp"
#include "knightstour/run/journal.hpp"

namespace knightstour {

struct EnumerateOptions {
  std::filesystem::path dir;  // the run directory (already set up and recovered)
  TourFormat format = TourFormat::npy;
  Compression compression = Compression::none;
  std::uint64_t part_size = std::uint64_t{1} << 30;  // bytes; a part closes at a prefix boundary
  double checkpoint_seconds = 60;  // a part also closes after this long, so a crash loses little
  std::uint64_t first_part = 0;    // part numbers from here on
  double progress_seconds = 0;
  // Prefixes finished by earlier sessions, by id (not searched again; in the totals).
  std::vector<std::optional<JournalRecord>> done_before;
};

struct EnumerateReport : RunTotals {
  std::uint64_t files_written = 0;  // this session
  std::uint64_t tours_written = 0;  // this session, in finished files
  std::uint64_t bytes_written = 0;
};

// Writes every tour of a resolved job into tour files in options.dir, one open part per
// thread (no lock per tour, memory bounded by one buffer per thread). A prefix is journaled
// only once the file holding its tours is finished (fsync, rename): after a crash at any
// instant, the journaled prefixes and finished files are consistent. Throws IoError when a
// write fails (disk full, size limit); what was committed before stays valid.
EnumerateReport run_enumerate(const JobSpec& job, const EnumerateOptions& options,
                              JournalWriter& journal, StopControl& stop);

}  // namespace knightstour
