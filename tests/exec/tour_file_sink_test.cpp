#include "knightstour/exec/tour_file_sink.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "knightstour/base/errors.hpp"
#include "knightstour/exec/driver.hpp"
#include "knightstour/io/tour_format.hpp"
#include "knightstour/run/run_layout.hpp"
#include "support/count_helpers.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

using test::make_job;
using test::TempDir;

class DirectoryParts : public PartFiles {
 public:
  explicit DirectoryParts(const std::filesystem::path& dir) : dir_(dir) {}
  std::unique_ptr<TourFileWriter> open_part() override {
    const auto name = run_layout::tour_file_name(
        0, next_.fetch_add(1), file_extension(TourFormat::npy, Compression::none));
    return std::make_unique<TourFileWriter>(dir_ / name, BoardShape{5, 5}, TourFormat::npy,
                                            Compression::none);
  }

 private:
  std::filesystem::path dir_;
  std::atomic<std::uint64_t> next_{0};
};

// Stands in for a journal on a disk that fills up: takes `room` batches, then throws as a
// full disk would.
class FillingLedger : public Ledger {
 public:
  explicit FillingLedger(int room) : room_(room) {}
  std::map<std::string, std::uint64_t> rows_by_file;  // what was recorded
  void record(std::span<const PrefixResult> results) override {
    if (room_-- <= 0) throw IoError("cannot write journal: No space left on device");
    for (const auto& r : results) {
      if (!r.part.empty()) rows_by_file[r.part] = r.part_rows;
    }
  }

 private:
  int room_;
};

std::set<std::string> files_in(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out.insert(e.path().filename().string());
  return out;
}

std::set<std::string> keys(const std::map<std::string, std::uint64_t>& m) {
  std::set<std::string> out;
  for (const auto& [k, v] : m) out.insert(k);
  return out;
}

// Runs 5x5 from a1 into part files until the ledger has no room; true when it completed.
bool write_tours(const std::filesystem::path& dir, FillingLedger& ledger, std::uint64_t part_size) {
  const JobRequest job = make_job("5x5", "a1");
  const Plan plan = resolve(job.request, 2);
  DirectoryParts parts(dir);
  TourFileSink sink(parts, {part_size, 60});
  StopControl stop(job.caps);
  try {
    return run_plan(plan, sink, ledger, {2}, stop).complete();
  } catch (const IoError&) {
    return false;
  }
}

TEST(TourFileSink, EveryFileIsRecordedWhenNothingFails) {
  TempDir dir;
  FillingLedger ledger(1'000'000);
  ASSERT_TRUE(write_tours(dir.path(), ledger, 1));
  EXPECT_EQ(files_in(dir.path()), keys(ledger.rows_by_file));
  std::uint64_t rows = 0;
  for (const auto& [file, n] : ledger.rows_by_file) rows += n;
  EXPECT_EQ(rows, 304u);
}

// A part is published before its prefixes are journaled; when the journal cannot take them,
// the part is withdrawn, so verify finds no file that no journal line names (the
// enumerate_cli disk-full check failed now and then on such a file).
TEST(TourFileSink, APartWhosePrefixesCannotBeRecordedIsWithdrawn) {
  for (const std::uint64_t part_size : {std::uint64_t{1}, std::uint64_t{1} << 30}) {
    for (int room = 0; room < 4; ++room) {
      TempDir dir;
      FillingLedger ledger(room);
      write_tours(dir.path(), ledger, part_size);
      EXPECT_EQ(files_in(dir.path()), keys(ledger.rows_by_file))
          << "part size " << part_size << ", room for " << room << " batches";
    }
  }
}

}  // namespace
}  // namespace knightstour
