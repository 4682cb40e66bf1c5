#include "knightstour/frontier/checkpoint.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "frontier/store/generation_store.hpp"
#include "frontier/store/step_spill.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/errors.hpp"
#include "support/generation_classes.hpp"
#include "support/mapped_files.hpp"
#include "support/temp_dir.hpp"

namespace knightstour {
namespace {

const CheckpointJob kJob{6, 7, true, 0};  // 6x7 closed from a1

FrontierState load(const std::filesystem::path& path, const CheckpointJob& job, int sweep) {
  FrontierState state;
  load_checkpoint(path, job, sweep, state);
  return state;
}

FrontierState sample_state(int parts) {
  const auto n = static_cast<std::uint64_t>(parts);
  Generation<2> g = test::generation_of<2>(
      n, 500, [](std::uint64_t i) { return 3 * i + 1; },
      [](std::uint64_t i) {
        return WideCount<2>{{i, ~i}};
      },
      [n](std::uint64_t i) { return i % n; });
  FrontierState state;
  state.next_step = 17;
  state.classes = std::move(g);
  return state;
}

// A generation spilled to disk is written to a checkpoint through a buffer, a chunk at a
// time (its parts span several chunks), and the checkpoint is read back by pread, never
// mapped: after loading and reading it, /proc/self/maps names no file of the directory.
TEST(Checkpoint, SpilledGenerationRoundTripsWithoutMapping) {
  test::TempDir dir;
  SpillArea area(dir / "spill");
  std::filesystem::create_directory(dir / "spill");
  constexpr std::uint64_t kClasses = 6 * CompactClasses::kBlockClasses + 5;
  Generation<1> g = test::generation_of<1>(
      2, kClasses, [](std::uint64_t i) { return 5 * i + 2; },
      [](std::uint64_t i) { return WideCount<1>{{~i}}; }, [](std::uint64_t i) { return i % 2; });
  MemoryBudget budget(std::uint64_t{1} << 24);
  ASSERT_TRUE(budget.reserve(g.memory_bytes()));
  spill_parts(g, area, budget);
  ASSERT_TRUE(g.parts[0].in_file() && g.parts[1].in_file());
  FrontierState state;
  state.next_step = 9;
  state.classes = std::move(g);
  const auto path = dir / "checkpoint.bin";
  write_checkpoint(path, kJob, 0, state);

  const FrontierState back = load(path, kJob, 0);
  const auto& b = std::get<Generation<1>>(back.classes);
  ASSERT_EQ(b.size(), kClasses);
  for (std::size_t p = 0; p < 2; ++p) {
    ASSERT_TRUE(b.parts[p].in_file());
    const auto classes = test::classes_of(b, p);
    for (std::size_t j = 0; j < classes.size(); ++j) {
      const std::uint64_t i = 2 * j + p;
      ASSERT_EQ(classes[j].first, 5 * i + 2);
      ASSERT_EQ(classes[j].second.limb[0], ~i);
    }
  }
  EXPECT_EQ(test::mappings_under(dir.path()), 0);
}

// A sweep stopped in a step that set its current generation aside (StepSpill::set_aside)
// keeps a generation partly in files, partly in memory: its checkpoint reads back the same.
TEST(Checkpoint, AGenerationPartlySetAsideRoundTrips) {
  test::TempDir dir;
  SpillArea area(dir / "spill");
  std::filesystem::create_directory(dir / "spill");
  constexpr std::uint64_t kClasses = 3 * CompactClasses::kBlockClasses + 7;
  Generation<1> g = test::generation_of<1>(
      3, kClasses, [](std::uint64_t i) { return 3 * i + 1; },
      [](std::uint64_t i) { return WideCount<1>{{i + 1}}; }, [](std::uint64_t i) { return i % 3; });
  MemoryBudget budget(std::uint64_t{1} << 24);
  ASSERT_TRUE(budget.reserve(g.memory_bytes()));
  frontier_detail::StepSpill spill(area, budget);
  spill.set_aside(g, 1, 2);
  spill.end_aside(g);
  ASSERT_TRUE(!g.parts[0].in_file() && g.parts[1].in_file() && !g.parts[2].in_file());
  std::vector<std::vector<test::Class<1>>> want;
  for (std::size_t p = 0; p < 3; ++p) want.push_back(test::classes_of(g, p));
  FrontierState state;
  state.next_step = 11;
  state.classes = std::move(g);
  const auto path = dir / "checkpoint.bin";
  write_checkpoint(path, kJob, 0, state);

  const FrontierState back = load(path, kJob, 0);
  EXPECT_EQ(back.next_step, 11);
  const auto& b = std::get<Generation<1>>(back.classes);
  ASSERT_EQ(b.size(), kClasses);
  for (std::size_t p = 0; p < 3; ++p) EXPECT_EQ(test::classes_of(b, p), want[p]);
}

// A checkpoint reads back the same classes and counts, in the same parts.
TEST(Checkpoint, RoundTrip) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  const FrontierState state = sample_state(4);
  std::optional<CheckpointHeader> seen;  // what the writer says before the file takes its name
  const WrittenCheckpoint written = write_checkpoint(path, kJob, 3, state, [&](const auto& h) {
    EXPECT_FALSE(std::filesystem::exists(path));
    seen = h;
  });
  EXPECT_EQ(written.bytes, std::filesystem::file_size(path));
  ASSERT_TRUE(seen);

  const auto header = read_checkpoint_header(path, kJob);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->job, kJob);
  EXPECT_EQ(header->sweep, 3);
  EXPECT_EQ(header->next_step, 17);
  EXPECT_EQ(header->limbs, 2);
  EXPECT_EQ(header->classes, 500u);
  EXPECT_EQ(header->data_checksum, written.header.data_checksum);
  EXPECT_EQ(seen->data_checksum, written.header.data_checksum);
  EXPECT_EQ(seen->next_step, 17);

  const FrontierState back = load(path, kJob, 3);
  EXPECT_EQ(back.next_step, 17);
  const auto& a = std::get<Generation<2>>(state.classes);
  const auto& b = std::get<Generation<2>>(back.classes);
  ASSERT_EQ(b.parts.size(), a.parts.size());
  for (std::size_t p = 0; p < a.parts.size(); ++p) {
    ASSERT_EQ(b.parts[p].size(), a.parts[p].size());
    EXPECT_TRUE(b.parts[p].in_file());
    EXPECT_EQ(test::classes_of(b, p), test::classes_of(a, p));
  }
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

// The widest counts (16 limbs, 1024 bits: long boards) round-trip too, every limb.
TEST(Checkpoint, TheWidestCountsRoundTrip) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  Generation<kMaxLimbs> g = test::generation_of<kMaxLimbs>(
      3, 100, [](std::uint64_t i) { return 7 * i + 3; },
      [](std::uint64_t i) {
        WideCount<kMaxLimbs> c;
        for (std::size_t l = 0; l < kMaxLimbs; ++l) c.limb[l] = (i + 1) * 0x9E3779B97F4A7C15ull ^ l;
        return c;
      },
      [](std::uint64_t i) { return i % 3; });
  FrontierState state;
  state.next_step = 5;
  state.classes = g;
  write_checkpoint(path, kJob, 0, state);
  const auto header = read_checkpoint_header(path, kJob);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->limbs, kMaxLimbs);
  const FrontierState back = load(path, kJob, 0);
  const auto& b = std::get<Generation<kMaxLimbs>>(back.classes);
  ASSERT_EQ(b.parts.size(), g.parts.size());
  for (std::size_t p = 0; p < g.parts.size(); ++p)
    EXPECT_EQ(test::classes_of(b, p), test::classes_of(g, p));
}

// Any changed byte of the header (its job, sweep, step, sizes) or after it, or a cut file, is
// refused, never resumed from. Before format 2 the header was outside the checksum: a flipped
// step bit resumed a wrong count as complete.
TEST(Checkpoint, EveryHeaderBitIsChecked) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  for (std::uint64_t bit = 64; bit < std::uint64_t{16} * 64; bit += 7) {
    write_checkpoint(path, kJob, 2, sample_state(3));
    {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(static_cast<std::streamoff>(bit / 8));
      const char c = static_cast<char>(f.get());
      f.seekp(static_cast<std::streamoff>(bit / 8));
      f.put(static_cast<char>(c ^ (1 << (bit % 8))));
    }
    EXPECT_THROW(load(path, kJob, 2), FormatError) << "bit " << bit;
  }
}

// A checkpoint names its job: another board, open/closed or start is refused, and so is one
// that holds another sweep than its caller asks for.
TEST(Checkpoint, AnotherJobIsRefused) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  write_checkpoint(path, kJob, 1, sample_state(2));
  for (const CheckpointJob other : {CheckpointJob{6, 6, true, 0}, CheckpointJob{6, 7, false, 0},
                                    CheckpointJob{6, 7, true, 1}, CheckpointJob{6, 7, true, -1}}) {
    EXPECT_THROW(read_checkpoint_header(path, other), FormatError) << describe(other);
    EXPECT_THROW(load(path, other, 1), FormatError) << describe(other);
  }
  EXPECT_THROW(load(path, kJob, 0), FormatError);
  EXPECT_NO_THROW(load(path, kJob, 1));
}

// A checkpoint names whose share of the job it holds: a rank's of a run over several MPI
// ranks (with the run's id), or one process's. Any other owner is refused, naming both.
TEST(Checkpoint, ItNamesWhoseShareItHolds) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  CheckpointJob rank0 = kJob;
  rank0.rank = 0;
  rank0.ranks = 2;
  rank0.run_id = 0x0123456789abcdefull;
  write_checkpoint(path, rank0, 0, sample_state(2));
  EXPECT_EQ(read_checkpoint_header(path, rank0)->job, rank0);
  EXPECT_NO_THROW(load(path, rank0, 0));
  CheckpointJob rank1 = rank0;
  rank1.rank = 1;
  CheckpointJob three = rank0;
  three.ranks = 3;
  CheckpointJob other_run = rank0;
  other_run.run_id = 42;
  CheckpointJob alone = kJob;
  alone.run_id = rank0.run_id;
  for (const CheckpointJob& other : {rank1, three, other_run, alone}) {
    EXPECT_THROW(read_checkpoint_header(path, other), FormatError) << describe_owner(other);
    EXPECT_THROW(check_checkpoint(path, other), FormatError) << describe_owner(other);
  }
  try {
    read_checkpoint_header(path, alone);
    ADD_FAILURE() << "a rank's share was taken for one process's count";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("holds MPI rank 0's share of a count over 2 ranks, and "
                                         "this directory holds a count of one process"),
              std::string::npos)
        << e.what();
  }
  try {
    read_checkpoint_header(path, other_run);
    ADD_FAILURE() << "another run's share was taken";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("another run of the same job (run id 0123456789abcdef, "
                                         "not 000000000000002a)"),
              std::string::npos)
        << e.what();
  }
}

// Checkpoints written before owners were recorded hold 0 in those words: one process's,
// with no run id, as they were.
TEST(Checkpoint, UnrecordedOwnerIsOneProcess) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  CheckpointJob old = kJob;
  old.ranks = 0;  // as the reserved word held it
  write_checkpoint(path, old, 0, sample_state(2));
  EXPECT_EQ(read_checkpoint_header(path, kJob)->job, kJob);
  CheckpointJob with_id = kJob;
  with_id.run_id = 7;
  EXPECT_THROW(read_checkpoint_header(path, with_id), FormatError);
}

// An all-starts job with the grid (start -1) and a total-only one (kTotalOnlyStarts) never
// take each other's checkpoints: sweep 1 is a pinned tail in one and the unpinned sweep in
// the other. The refusal names both jobs.
TEST(Checkpoint, TotalOnlyAndGridJobsRefuseEachOther) {
  test::TempDir dir;
  const CheckpointJob grid{6, 7, false, -1};
  const CheckpointJob total{6, 7, false, kTotalOnlyStarts};
  EXPECT_EQ(describe(total), "6x7 open, all starts, total only");
  const auto total_path = dir / "total.bin";
  const auto grid_path = dir / "grid.bin";
  write_checkpoint(total_path, total, 1, sample_state(2));
  write_checkpoint(grid_path, grid, 1, sample_state(2));
  EXPECT_EQ(read_checkpoint_header(total_path, total)->job, total);
  EXPECT_NO_THROW(load(total_path, total, 1));
  try {
    load(grid_path, total, 1);
    ADD_FAILURE() << "a grid job's checkpoint was taken for a total-only job";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("(6x7 open, all starts, not 6x7 open, all starts, "
                                         "total only)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load(total_path, grid, 1), FormatError);
}

// A row's checkpoint from before one sweep served every length of a kind (start -4) is
// numbered and pruned otherwise: refused with one line that says what to do, never resumed.
TEST(Checkpoint, ARowSweptTheEarlierWayIsRefused) {
  test::TempDir dir;
  const CheckpointJob before{5, 9, false, kEveryLengthStartsBefore};
  const CheckpointJob row{5, 9, false, kEveryLengthStarts};
  EXPECT_EQ(describe(row), "5xn open, all starts, every length n to 9");
  const auto path = dir / "row.bin";
  write_checkpoint(path, before, 19, sample_state(2));
  try {
    read_checkpoint_header(path, row);
    ADD_FAILURE() << "a row swept the earlier way was taken";
  } catch (const FormatError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("5xn open to length 9 as an earlier knightstour swept rows"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("delete it to sweep that row again"), std::string::npos) << what;
  }
}

// A dangling symbolic link where a checkpoint should be is refused, not taken for "none".
TEST(Checkpoint, DanglingLinkIsRefused) {
  test::TempDir dir;
  std::filesystem::create_symlink(dir / "gone.bin", dir / "checkpoint.bin");
  EXPECT_THROW(read_checkpoint_header(dir / "checkpoint.bin", kJob), FormatError);
}

// Checkpoints of formats 1 and 2 (a class in 16 bytes or more, before compact classes) are
// refused with a line that names their format, whatever follows the magic.
TEST(Checkpoint, OlderFormatsAreRefusedByName) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  for (const char version : {'1', '2'}) {
    write_checkpoint(path, kJob, 0, sample_state(2));
    {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(7);
      f.put(version);
    }
    try {
      read_checkpoint_header(path, kJob);
      ADD_FAILURE() << "a checkpoint of format " << version << " was read";
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("is of format ") + version +
                                           ", which this knightstour does not read"),
                std::string::npos)
          << e.what();
    }
  }
}

// Any changed byte after the header, or a cut file, is refused, never resumed from.
TEST(Checkpoint, DamageIsRefused) {
  test::TempDir dir;
  const auto path = dir / "checkpoint.bin";
  write_checkpoint(path, kJob, 0, sample_state(3));
  const auto size = std::filesystem::file_size(path);
  for (std::uint64_t at : {std::uint64_t{128}, std::uint64_t{200}, size - 1}) {
    write_checkpoint(path, kJob, 0, sample_state(3));
    {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(at));
      f.put('\x7f');
    }
    EXPECT_THROW(load(path, kJob, 0), FormatError) << "byte " << at;
  }
  write_checkpoint(path, kJob, 0, sample_state(3));
  std::filesystem::resize_file(path, size - 8);
  EXPECT_THROW(load(path, kJob, 0), FormatError);
  std::filesystem::resize_file(path, 20);
  EXPECT_THROW(read_checkpoint_header(path, kJob), FormatError);
  EXPECT_FALSE(read_checkpoint_header(dir / "absent.bin", kJob));
}

}  // namespace
}  // namespace knightstour
