#include "knightstour/frontier/checkpoint.hpp"

#include <fcntl.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "frontier/store/spill.hpp"
#include "frontier/sweep/frontier_counter.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/units.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

namespace {

// Format 3: classes in compact form (compact_classes.hpp). Formats 1 and 2 (16 bytes and
// more a class) are refused by name.
constexpr char kMagic[8] = {'K', 'T', 'F', 'R', 'O', 'N', 'T', '3'};
constexpr char kMagicBase[7] = {'K', 'T', 'F', 'R', 'O', 'N', 'T'};
constexpr std::size_t kHeaderWords = 16;
constexpr std::size_t kDataChecksum = 10;
constexpr std::size_t kHeaderChecksum = 11;

// A checksum over 64-bit words that sees their order (a damaged or shifted file differs).
struct Checksum {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  void add(const std::uint64_t* words, std::uint64_t n) {
    std::uint64_t x = h;
    for (std::uint64_t i = 0; i < n; ++i) x = (x ^ words[i]) * 0x100000001b3ull + (x >> 29);
    h = x;
  }
};

// Writes arrays of words and checksums exactly what it writes.
class Writer {
 public:
  explicit Writer(PosixFile& file) : file_(file) {}
  void words(const std::uint64_t* p, std::uint64_t n) {
    sum_.add(p, n);
    file_.write_all(p, n * 8);
    bytes_ += n * 8;
  }
  std::uint64_t checksum() const { return sum_.h; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  PosixFile& file_;
  Checksum sum_;
  std::uint64_t bytes_ = 0;
};

// After the header: the classes of each part (one word a part), then each part with
// classes: its block offsets (blocks + 1 words, the first 0, the last its byte size) and its
// bytes, padded with zeros to a whole word.
template <int K>
void write_parts(Writer& w, const Generation<K>& g) {
  std::vector<std::uint64_t> sizes;
  for (const auto& part : g.parts) sizes.push_back(part.size());
  w.words(sizes.data(), sizes.size());
  // A part in a spill file or an older checkpoint is copied through this buffer, not counted.
  std::vector<std::uint64_t> buffer(std::size_t{1} << 14);
  for (const auto& part : g.parts) {
    if (part.size() == 0) continue;
    w.words(part.classes.block_at.data(), part.classes.block_at.size());
    const std::uint64_t n = part.class_bytes();
    for (std::uint64_t at = 0; at < n; at += buffer.size() * 8) {
      const std::uint64_t m = std::min<std::uint64_t>(buffer.size() * 8, n - at);
      buffer[(m - 1) / 8] = 0;  // the padding of the last word
      if (part.in_file()) {
        part.file->read(buffer.data(), m, part.file_at + at);
      } else {
        std::memcpy(buffer.data(), part.classes.bytes.data() + at, m);
      }
      w.words(buffer.data(), (m + 7) / 8);
    }
  }
}

using HeaderWords = std::array<std::uint64_t, kHeaderWords>;

// Over every header word but its own slot (reserved words too: a flipped bit anywhere in
// the header is seen).
std::uint64_t header_checksum(HeaderWords w) {
  w[kHeaderChecksum] = 0;
  Checksum sum;
  sum.add(w.data(), kHeaderWords);
  return sum.h;
}

HeaderWords header_words(const CheckpointHeader& h, std::uint64_t checksum) {
  HeaderWords w{};
  std::memcpy(&w[0], kMagic, 8);
  w[1] = static_cast<std::uint64_t>(h.job.rows);
  w[2] = static_cast<std::uint64_t>(h.job.cols);
  w[3] = h.job.closed ? 1 : 0;
  w[4] = static_cast<std::uint64_t>(h.job.start + 1);
  w[5] = static_cast<std::uint64_t>(h.sweep);
  w[6] = static_cast<std::uint64_t>(h.next_step);
  w[7] = static_cast<std::uint64_t>(h.limbs);
  w[8] = h.parts;
  w[9] = h.classes;
  w[kDataChecksum] = checksum;
  w[12] = static_cast<std::uint64_t>(h.job.rank);
  w[13] = static_cast<std::uint64_t>(h.job.ranks);
  w[14] = h.job.run_id;
  w[kHeaderChecksum] = header_checksum(w);
  return w;
}

std::string run_id_text(std::uint64_t id) {
  if (id == 0) return "none";
  return hex64(id);
}

[[noreturn]] void damaged(const std::filesystem::path& path, const std::string& why) {
  throw FormatError("checkpoint " + path.string() + " is damaged (" + why +
                    "); delete it to start the sweep again");
}

// The parts of a checkpoint, their bytes left in its file: `sizes` were read from it, and
// its data starts at `offset`.
template <int K>
Generation<K> file_parts(const std::shared_ptr<const ClassFile>& file,
                         const std::vector<std::uint64_t>& sizes, std::uint64_t offset,
                         const std::filesystem::path& path) {
  constexpr std::uint64_t kBlock = CompactClasses::kBlockClasses;
  Generation<K> g;
  g.parts.resize(sizes.size());
  for (std::size_t p = 0; p < sizes.size(); ++p) {
    const std::uint64_t n = sizes[p];
    if (n == 0) continue;
    const std::uint64_t blocks = (n + kBlock - 1) / kBlock;
    if (blocks + 1 > (file->size() - offset) / 8) damaged(path, "a part runs past the end");
    auto& part = g.parts[p];
    part.classes.classes = n;
    part.classes.block_at.resize(blocks + 1);
    file->read(part.classes.block_at.data(), (blocks + 1) * 8, offset);
    offset += (blocks + 1) * 8;
    const auto& at = part.classes.block_at;
    if (at[0] != 0) damaged(path, "a part's first block is not at its start");
    for (std::uint64_t b = 0; b < blocks; ++b) {
      if (at[b + 1] <= at[b]) damaged(path, "a part's blocks are out of order");
    }
    const std::uint64_t bytes = at.back();
    if ((bytes + 7) / 8 > (file->size() - offset) / 8) damaged(path, "a part runs past the end");
    part.file = file;
    part.file_at = offset;
    offset += (bytes + 7) / 8 * 8;
  }
  if (offset != file->size()) damaged(path, "bytes left after the last part");
  return g;
}

}  // namespace

std::string describe_owner(const CheckpointJob& job) {
  if (job.ranks <= 1) return "a count of one process";
  return "MPI rank " + std::to_string(job.rank) + "'s share of a count over " +
         std::to_string(job.ranks) + " ranks";
}

std::string describe(const CheckpointJob& job) {
  std::string text = std::to_string(job.rows) + "x" + std::to_string(job.cols) +
                     (job.closed ? " closed" : " open");
  if (job.start == kTotalOnlyStarts) return text + ", all starts, total only";
  if (job.start == kEndPairStarts) return text + ", all starts by end pairs";
  if (job.start == kEveryLengthStartsBefore) {
    return std::to_string(job.rows) + "xn" + (job.closed ? " closed" : " open") + " to length " +
           std::to_string(job.cols) + " as an earlier knightstour swept rows";
  }
  if (job.start == kEveryLengthStarts) {
    return std::to_string(job.rows) + "xn" + (job.closed ? " closed" : " open") +
           ", all starts, every length n to " + std::to_string(job.cols);
  }
  if (job.start < 0) return text + ", all starts";
  return text + ", start " +
         square_name(static_cast<int>(job.start / job.cols),
                     static_cast<int>(job.start % job.cols));
}

WrittenCheckpoint write_checkpoint(
    const std::filesystem::path& path, const CheckpointJob& job, int sweep,
    const FrontierState& state,
    const std::function<void(const CheckpointHeader&)>& before_publish) {
  const std::filesystem::path temp = path.string() + kTempSuffix;
  CheckpointHeader h;
  h.job = job;
  h.sweep = sweep;
  h.next_step = state.next_step;
  std::visit(
      [&](const auto& g) {
        h.limbs = std::decay_t<decltype(g)>::kLimbs;
        h.parts = g.parts.size();
        h.classes = g.size();
      },
      state.classes);
  std::uint64_t bytes = 0;
  try {
    PosixFile file(temp, O_WRONLY | O_CREAT | O_TRUNC);
    const auto blank = header_words(h, 0);
    file.write_all(blank.data(), sizeof blank);
    Writer w(file);
    std::visit([&](const auto& g) { write_parts(w, g); }, state.classes);
    const auto header = header_words(h, w.checksum());
    file.pwrite_all(header.data(), sizeof header, 0);
    file.sync();
    file.close();
    bytes = sizeof header + w.bytes();
    h.data_checksum = w.checksum();
    if (before_publish) before_publish(h);
  } catch (...) {
    // A full disk must not stay full of a checkpoint that will never be used.
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw;
  }
  durable_rename(temp, path);
  return {h, bytes};
}

std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& path,
                                                       const CheckpointJob& job) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (!std::filesystem::exists(status)) return std::nullopt;
  if (!std::filesystem::is_regular_file(status)) damaged(path, "not a regular file");
  PosixFile file(path, O_RDONLY);
  HeaderWords w{};
  std::size_t got = 0;
  while (got < sizeof w) {
    const std::size_t n = file.read_some(reinterpret_cast<char*>(w.data()) + got, sizeof w - got);
    if (n == 0) damaged(path, "shorter than its header");
    got += n;
  }
  const char version = reinterpret_cast<const char*>(w.data())[7];
  if (std::memcmp(&w[0], kMagicBase, 7) == 0 && (version == '1' || version == '2')) {
    throw FormatError("checkpoint " + path.string() + " is of format " + std::string(1, version) +
                      ", which this knightstour does not read (it reads format 3, compact "
                      "classes); delete it to start the sweep again");
  }
  if (std::memcmp(&w[0], kMagic, 8) != 0) damaged(path, "not a knightstour checkpoint");
  if (w[kHeaderChecksum] != header_checksum(w)) damaged(path, "header checksum mismatch");
  CheckpointHeader h;
  h.job.rows = static_cast<int>(w[1]);
  h.job.cols = static_cast<int>(w[2]);
  h.job.closed = w[3] != 0;
  h.job.start = static_cast<std::int64_t>(w[4]) - 1;
  h.sweep = static_cast<int>(w[5]);
  h.next_step = static_cast<int>(w[6]);
  h.limbs = static_cast<int>(w[7]);
  h.parts = w[8];
  h.classes = w[9];
  h.data_checksum = w[kDataChecksum];
  h.job.rank = static_cast<int>(w[12]);
  h.job.ranks = w[13] == 0 ? 1 : static_cast<int>(w[13]);  // 0: written before ranks were
  h.job.run_id = w[14];
  const bool same_count = h.job.rows == job.rows && h.job.cols == job.cols &&
                          h.job.closed == job.closed && h.job.start == job.start;
  if (h.job.start == kEveryLengthStartsBefore && job.start == kEveryLengthStarts) {
    throw FormatError("checkpoint " + path.string() + " holds a sweep of " + describe(h.job) +
                      ", which this one cannot resume: delete it to sweep that row again (the "
                      "lengths it had counted stay in the journal)");
  }
  if (!same_count) {
    throw FormatError("checkpoint " + path.string() + " belongs to another job (" +
                      describe(h.job) + ", not " + describe(job) + "); it cannot be resumed here");
  }
  if (h.job.rank != job.rank || h.job.ranks != job.ranks) {
    throw FormatError("checkpoint " + path.string() + " holds " + describe_owner(h.job) +
                      ", and this directory holds " + describe_owner(job) +
                      "; it cannot be resumed here: put back this directory's own checkpoint, "
                      "or delete it to start the sweep again");
  }
  if (h.job.run_id != job.run_id) {
    throw FormatError("checkpoint " + path.string() +
                      " belongs to another run of the same job (run id " +
                      run_id_text(h.job.run_id) + ", not " + run_id_text(job.run_id) +
                      "); it cannot be resumed here: put back this run's own checkpoint, or "
                      "delete it to start the sweep again");
  }
  if (h.limbs != 1 && h.limbs != 2 && h.limbs != 4 && h.limbs != 8 && h.limbs != 16)
    damaged(path, "bad limbs");
  if (h.parts == 0 || h.parts > (1u << 20)) damaged(path, "bad part count");
  return h;
}

namespace {

struct Checked {
  CheckpointHeader header;
  std::shared_ptr<const ClassFile> file;
  std::vector<std::uint64_t> sizes;  // of the parts
};

// Opens the file and checks its data against the header, reading it front to back once;
// the caller names the sweep.
Checked open_checked(const std::filesystem::path& path, const CheckpointJob& job) {
  const auto h = read_checkpoint_header(path, job);
  if (!h) throw IoError("cannot open " + path.string() + ": no such file");
  auto file = std::make_shared<const ClassFile>(path);
  const std::uint64_t bytes = file->size();
  if (bytes < kHeaderWords * 8 + h->parts * 8) damaged(path, "too short");
  if (bytes % 8 != 0) damaged(path, "checksum mismatch");
  HeaderWords header{};
  file->read(header.data(), sizeof header, 0);
  Checksum sum;
  std::vector<std::uint64_t> chunk(std::size_t{1} << 16);
  for (std::uint64_t at = kHeaderWords * 8; at < bytes; at += chunk.size() * 8) {
    const std::uint64_t n = std::min<std::uint64_t>(chunk.size(), (bytes - at) / 8);
    file->read(chunk.data(), n * 8, at);
    sum.add(chunk.data(), n);
  }
  if (sum.h != header[kDataChecksum]) damaged(path, "checksum mismatch");
  std::vector<std::uint64_t> sizes(h->parts);
  file->read(sizes.data(), h->parts * 8, kHeaderWords * 8);
  std::uint64_t classes = 0;
  for (const std::uint64_t n : sizes) classes += n;
  if (classes != h->classes) damaged(path, "class count mismatch");
  return {*h, std::move(file), std::move(sizes)};
}

}  // namespace

CheckpointHeader check_checkpoint(const std::filesystem::path& path, const CheckpointJob& job) {
  return open_checked(path, job).header;
}

int next_step_of(const FrontierState& state) { return state.next_step; }

void load_checkpoint(const std::filesystem::path& path, const CheckpointJob& job, int sweep,
                     FrontierState& state) {
  const Checked c = open_checked(path, job);
  const CheckpointHeader& h = c.header;
  if (h.sweep != sweep) {
    damaged(path,
            "it holds sweep " + std::to_string(h.sweep) + ", not sweep " + std::to_string(sweep));
  }
  const std::uint64_t offset = (kHeaderWords + h.parts) * 8;
  state.next_step = h.next_step;
  switch (h.limbs) {
    case 1:
      state.classes = file_parts<1>(c.file, c.sizes, offset, path);
      break;
    case 2:
      state.classes = file_parts<2>(c.file, c.sizes, offset, path);
      break;
    case 4:
      state.classes = file_parts<4>(c.file, c.sizes, offset, path);
      break;
    case 8:
      state.classes = file_parts<8>(c.file, c.sizes, offset, path);
      break;
    default:
      state.classes = file_parts<16>(c.file, c.sizes, offset, path);
      break;
  }
}

}  // namespace knightstour
