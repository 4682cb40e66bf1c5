#include "knightstour/frontier/checkpoint.hpp"

#include <fcntl.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/spill.hpp"
#include "knightstour/io/posix_file.hpp"

namespace knightstour {

namespace {

constexpr char kMagic[8] = {'K', 'T', 'F', 'R', 'O', 'N', 'T', '1'};
constexpr std::size_t kHeaderWords = 8;

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

template <int K>
void write_parts(Writer& w, const Generation<K>& g) {
  std::vector<std::uint64_t> sizes;
  for (const auto& part : g.parts) sizes.push_back(part.size());
  w.words(sizes.data(), sizes.size());
  for (const auto& part : g.parts) {
    w.words(part.key_data(), part.size());
    w.words(reinterpret_cast<const std::uint64_t*>(part.count_data()), part.size() * K);
  }
}

std::array<std::uint64_t, kHeaderWords> header_words(const CheckpointHeader& h,
                                                     std::uint64_t checksum) {
  std::array<std::uint64_t, kHeaderWords> w{};
  std::memcpy(&w[0], kMagic, 8);
  w[1] = static_cast<std::uint64_t>(h.sweep);
  w[2] = static_cast<std::uint64_t>(h.next_step);
  w[3] = static_cast<std::uint64_t>(h.limbs);
  w[4] = h.parts;
  w[5] = h.classes;
  w[6] = checksum;
  return w;
}

[[noreturn]] void damaged(const std::filesystem::path& path, const std::string& why) {
  throw FormatError("checkpoint " + path.string() + " is damaged (" + why +
                    "); delete it to start the sweep again");
}

template <int K>
Generation<K> map_parts(const std::shared_ptr<const SpillMapping>& mapping,
                        const std::uint64_t* sizes, std::uint64_t parts, std::uint64_t offset,
                        const std::filesystem::path& path) {
  Generation<K> g;
  g.parts.resize(parts);
  for (std::uint64_t p = 0; p < parts; ++p) {
    const std::uint64_t n = sizes[p];
    constexpr std::uint64_t kClassBytes = std::uint64_t{8} * (1 + K);
    if (n > (mapping->size() - offset) / kClassBytes) damaged(path, "a part runs past the end");
    auto& part = g.parts[p];
    if (n > 0) {
      part.file_keys = reinterpret_cast<const std::uint64_t*>(mapping->data() + offset);
      part.file_counts = reinterpret_cast<const WideCount<K>*>(mapping->data() + offset + n * 8);
      part.file_size = n;
    }
    offset += n * kClassBytes;
  }
  if (offset != mapping->size()) damaged(path, "bytes left after the last part");
  g.files.push_back(mapping);
  return g;
}

}  // namespace

std::uint64_t write_checkpoint(const std::filesystem::path& path, int sweep,
                               const FrontierState& state) {
  const std::filesystem::path temp = path.string() + kTempSuffix;
  CheckpointHeader h;
  h.sweep = sweep;
  h.next_step = state.next_step;
  std::visit(
      [&](const auto& g) {
        h.limbs = std::decay_t<decltype(g)>::kLimbs;
        h.parts = g.parts.size();
        h.classes = g.size();
      },
      state.classes);
  PosixFile file(temp, O_WRONLY | O_CREAT | O_TRUNC);
  const auto blank = header_words(h, 0);
  file.write_all(blank.data(), sizeof blank);
  Writer w(file);
  std::visit([&](const auto& g) { write_parts(w, g); }, state.classes);
  const auto header = header_words(h, w.checksum());
  file.pwrite_all(header.data(), sizeof header, 0);
  file.sync();
  file.close();
  durable_rename(temp, path);
  return sizeof header + w.bytes();
}

std::optional<CheckpointHeader> read_checkpoint_header(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  PosixFile file(path, O_RDONLY);
  std::array<std::uint64_t, kHeaderWords> w{};
  std::size_t got = 0;
  while (got < sizeof w) {
    const std::size_t n = file.read_some(reinterpret_cast<char*>(w.data()) + got, sizeof w - got);
    if (n == 0) damaged(path, "shorter than its header");
    got += n;
  }
  if (std::memcmp(&w[0], kMagic, 8) != 0) damaged(path, "not a knightstour checkpoint");
  CheckpointHeader h;
  h.sweep = static_cast<int>(w[1]);
  h.next_step = static_cast<int>(w[2]);
  h.limbs = static_cast<int>(w[3]);
  h.parts = w[4];
  h.classes = w[5];
  if (h.limbs != 1 && h.limbs != 2 && h.limbs != 4 && h.limbs != 8) damaged(path, "bad limbs");
  if (h.parts == 0 || h.parts > (1u << 20)) damaged(path, "bad part count");
  return h;
}

FrontierState load_checkpoint(const std::filesystem::path& path) {
  const auto h = read_checkpoint_header(path);
  if (!h) throw IoError("cannot open " + path.string() + ": no such file");
  std::error_code ec;
  const std::uint64_t bytes = std::filesystem::file_size(path, ec);
  if (ec || bytes < kHeaderWords * 8 + h->parts * 8) damaged(path, "too short");
  auto mapping = std::make_shared<const SpillMapping>(path, bytes);
  const auto* words = reinterpret_cast<const std::uint64_t*>(mapping->data());
  Checksum sum;
  sum.add(words + kHeaderWords, bytes / 8 - kHeaderWords);
  if (bytes % 8 != 0 || sum.h != words[6]) damaged(path, "checksum mismatch");
  const std::uint64_t* sizes = words + kHeaderWords;
  std::uint64_t classes = 0;
  for (std::uint64_t p = 0; p < h->parts; ++p) classes += sizes[p];
  if (classes != h->classes) damaged(path, "class count mismatch");
  const std::uint64_t offset = (kHeaderWords + h->parts) * 8;
  FrontierState state;
  state.next_step = h->next_step;
  switch (h->limbs) {
    case 1:
      state.classes = map_parts<1>(mapping, sizes, h->parts, offset, path);
      break;
    case 2:
      state.classes = map_parts<2>(mapping, sizes, h->parts, offset, path);
      break;
    case 4:
      state.classes = map_parts<4>(mapping, sizes, h->parts, offset, path);
      break;
    default:
      state.classes = map_parts<8>(mapping, sizes, h->parts, offset, path);
      break;
  }
  return state;
}

}  // namespace knightstour
