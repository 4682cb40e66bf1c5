#include "knightstour/run/verify.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>

#include "knightstour/base/checked_sum.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/board/square.hpp"
#include "knightstour/board/tour_check.hpp"
#include "knightstour/io/tour_file_reader.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/run/committed_journal.hpp"
#include "knightstour/run/journal.hpp"
#include "knightstour/run/manifest.hpp"
#include "knightstour/run/run_layout.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

// 128-bit fingerprint of a tour; equal fingerprints are confirmed by comparing the rows.
struct Fingerprint {
  std::uint64_t a, b;
  std::uint32_t file;
  std::uint64_t row;
  bool operator<(const Fingerprint& o) const {
    if (a != o.a) return a < o.a;
    if (b != o.b) return b < o.b;
    return file != o.file ? file < o.file : row < o.row;  // report the later copy
  }
  bool same_hash(const Fingerprint& o) const { return a == o.a && b == o.b; }
};

Fingerprint fingerprint(const std::vector<std::uint32_t>& tour, std::uint32_t file,
                        std::uint64_t row) {
  std::uint64_t a = 0x9E3779B97F4A7C15ull, b = 0xC2B2AE3D27D4EB4Full;
  for (auto s : tour) {
    a = (a ^ s) * 0xBF58476D1CE4E5B9ull;
    a ^= a >> 31;
    b = (b + s) * 0x94D049BB133111EBull;
    b ^= b >> 29;
  }
  return {a, b, file, row};
}

std::vector<std::uint32_t> read_row(const fs::path& path, BoardShape shape, std::uint64_t row) {
  TourFileReader reader(path, shape);
  std::vector<std::uint32_t> tour;
  for (std::uint64_t i = 0; i <= row; ++i) reader.next(tour);
  return tour;
}

// Finds the first real duplicate among the fingerprints (sorted in place).
std::optional<std::string> find_duplicate(std::vector<Fingerprint>& prints,
                                          const std::vector<fs::path>& files, BoardShape shape) {
  std::sort(prints.begin(), prints.end());
  for (std::size_t i = 1; i < prints.size(); ++i) {
    if (!prints[i].same_hash(prints[i - 1])) continue;
    const auto& p = prints[i - 1];
    const auto& q = prints[i];
    if (read_row(files[p.file], shape, p.row) == read_row(files[q.file], shape, q.row)) {
      return files[q.file].filename().string() + " row " + std::to_string(q.row) +
             ": the same tour as " + files[p.file].filename().string() + " row " +
             std::to_string(p.row);
    }
  }
  return std::nullopt;
}

std::string key_of(const std::uint32_t* squares, std::size_t n) {
  std::string k(n, '\0');
  for (std::size_t i = 0; i < n; ++i) k[i] = static_cast<char>(squares[i]);
  return k;
}

std::string first_squares(const Board& board, const std::vector<std::uint32_t>& tour,
                          std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ',';
    s += square_name(board, static_cast<int>(tour[i]));
  }
  return s;
}

// A sample (enumerate --sample) has no plan or journal: one tour file, written whole, whose
// rows must be distinct tours of the request, as many as the manifest says.
VerifyReport verify_sample(const fs::path& dir, const RunManifest& m) {
  const Request request = m.request();
  const BoardShape shape = request.board.shape();
  const auto extension = file_extension(m.tour_format.value_or(TourFormat::npy),
                                        m.compression.value_or(Compression::none));
  const fs::path file = dir / run_layout::tour_file_name(0, 0, extension);
  VerifyReport report;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (name == run_layout::kManifest || name == run_layout::kLock || entry.path() == file)
      continue;
    if (run_layout::holds_run_file(name))
      report.fail(name + ": a sample directory holds only " + file.filename().string());
  }
  if (!fs::exists(file)) {
    report.fail(file.filename().string() + " is missing");
    return report;
  }
  VerifyOptions options;
  options.board = shape;
  options.closed = m.closed_only;
  options.prefix.assign(request.prefix.begin(), request.prefix.end());  // empty: all starts
  VerifyReport files = verify_tour_files({file}, options);
  if (!files.ok) report.fail(files.problem);
  report.files = files.files;
  report.tours = files.tours;
  report.closed = files.closed;
  if (report.tours != m.tours || report.closed != m.closed_tours) {
    report.fail(file.filename().string() + " holds " + std::to_string(report.tours) + " tours (" +
                std::to_string(report.closed) + " closed), the manifest says " +
                std::to_string(m.tours) + " (" + std::to_string(m.closed_tours) + ")");
  }
  if (m.tours > m.sample) report.fail("the manifest holds more tours than the sample asked");
  if (m.status != RunStatus::complete) report.fail("the manifest does not say complete");
  report.run_status = to_string(m.status);
  report.notes.push_back(m.tours == m.sample
                             ? "a sample: the first " + with_commas(m.sample) +
                                   " tours in depth-first search order (enumerate $sample)"
                             : "a sample that holds every tour there is: " + with_commas(m.tours) +
                                   ", fewer than the " + with_commas(m.sample) +
                                   " asked (enumerate $sample)");
  // Two samples of one job hold the same first tours: verify of both must see the overlap.
  report.job = "sample " + m.board_name() + (m.all_starts ? " all" : " from");
  for (const auto& s : m.prefix) report.job += " " + s;
  report.job += m.closed_only ? " closed" : " open";
  if (report.tours > 0) report.prefixes_with_tours.push_back(0);
  return report;
}

}  // namespace

namespace {

// One run directory of the enumerator under check: its manifest, the plan it describes and
// its journal; what the checks find goes into `report`.
struct RunUnderCheck {
  const fs::path& dir;
  const RunManifest& m;
  const Plan& plan;
  const CommittedJournal& journal;
  RunCheck check;
  VerifyReport& report;

  bool enumerate() const { return m.command == Command::enumerate; }
  // What an interrupted session leaves: a note in a run that is not finished (--resume
  // repairs it; every reader takes the run as it would be then), a problem in one whose
  // manifest says complete (a finished session leaves none).
  void residue(const std::string& what) const {
    if (m.status == RunStatus::complete) {
      report.fail(what + "; the manifest says complete");
    } else {
      report.notes.push_back(what);
    }
  }
};

// The journal's lines, checked against the plan and each other: the records of the plan's
// prefixes, by id.
std::map<std::size_t, JournalRecord> checked_records(const RunUnderCheck& run) {
  const CommittedJournal& journal = run.journal;
  VerifyReport& report = run.report;
  const PrefixPlan& prefixes = run.plan.prefixes();
  const Board& board = run.plan.board();
  if (!journal.temp_files.empty()) {
    report.notes.push_back(
        std::to_string(journal.temp_files.size()) +
        " unfinished temp file(s) from an interrupted session (ignored; $resume removes them)");
  }
  for (const auto& name : journal.torn_journals)
    run.residue(name + ": the last line is torn (an interrupted session; $resume repairs it)");
  for (const auto id : journal.duplicates)
    report.fail("prefix " + std::to_string(id) + ": journaled twice");
  if (!run.enumerate() && !journal.unnamed_files.empty())
    report.fail(journal.unnamed_files.front() + ": a tour file in a count run");
  for (const auto& r : journal.dropped) {
    if (r.file == "-")
      report.fail("prefix " + std::to_string(r.id) + " has tours but names no file");
  }
  for (const auto& name : journal.unmatched_files) {
    // A crash that tore the last line of the journal leaves the file it named short of lines.
    const std::string what = name + ": holds other tours than its journal lines say";
    if (journal.torn_journals.empty()) {
      report.fail(what + " (damaged, or cannot be read): delete it to search its prefixes again");
    } else {
      run.residue(what + ", one of them torn (an interrupted session; $resume removes it and " +
                  "searches its prefixes again)");
    }
  }
  std::map<std::size_t, JournalRecord> records;
  for (const auto& r : journal.records) {
    const std::string where = "prefix " + std::to_string(r.id);
    if (r.id >= prefixes.size() || !run.plan.in_shard(r.id)) {
      report.fail(where + ": not a prefix of this run's plan");
      continue;
    }
    const auto p = prefixes[r.id];
    if (path_name(board, p.data(), static_cast<int>(p.size())) != r.squares) {
      report.fail(where + ": squares " + r.squares + " differ from the plan's " +
                  path_name(board, p.data(), static_cast<int>(p.size())));
    }
    records.emplace(r.id, r);
    if (!run.enumerate()) {
      std::uint64_t closed = 0;
      for (int e = 0; e < board.squares(); ++e) {
        if (board.adjacent(e, p[0]))
          add_checked(closed, r.by_end[static_cast<std::size_t>(e)], where);
      }
      if (closed != r.closed)
        report.fail(where + ": closed count disagrees with the counts by last square");
      if (run.m.closed_only && r.closed != r.tours)
        report.fail(where + ": a closed-only run with open tours");
    }
  }
  return records;
}

// The tours of a derived prefix are the searched prefix's mapped by a board symmetry (the
// plan's work items), so journaled members of one item hold as many tours and closed tours
// and, in a count run, the same counts by last square mapped by that symmetry.
void check_mirror_images(const RunUnderCheck& run,
                         const std::map<std::size_t, JournalRecord>& records) {
  const std::vector<Symmetry>& group = run.plan.group();
  const int squares = run.plan.board().squares();
  for (const WorkItem& item : run.plan.items()) {
    const JournalRecord* first = nullptr;
    const Symmetry* first_image = nullptr;
    for (const WorkItem::Member& member : item.members) {
      const auto it = records.find(member.id);
      if (it == records.end()) continue;
      const Symmetry& image = group[member.symmetry];
      if (first == nullptr) {
        first = &it->second;
        first_image = &image;
        continue;
      }
      const JournalRecord& r = it->second;
      bool mirrored = r.tours == first->tours && r.closed == first->closed;
      // A tour of the searched prefix that ends on e ends on image(e) here.
      for (int e = 0; mirrored && !run.enumerate() && e < squares; ++e) {
        mirrored = r.by_end[static_cast<std::size_t>(image(e))] ==
                   first->by_end[static_cast<std::size_t>((*first_image)(e))];
      }
      if (!mirrored) {
        run.report.fail("prefix " + std::to_string(r.id) +
                        ": its counts are not the mirror image of prefix " +
                        std::to_string(first->id) +
                        "'s, from which the plan derives them by a symmetry of the board");
        return;
      }
    }
  }
}

std::string job_line(const RunManifest& m) {
  std::string job = to_string(m.command) + " " + std::to_string(m.rows) + "x" +
                    std::to_string(m.cols) + (m.all_starts ? " all" : " from");
  for (const auto& s : m.prefix) job += " " + s;
  return job + (m.closed_only ? " closed" : " open") + " depth " + std::to_string(m.split_depth) +
         (m.symmetry ? " sym" : " nosym");
}

// The tour files an enumeration names, of the type its manifest says it writes.
std::set<std::string> named_tour_files(const RunUnderCheck& run,
                                       const std::map<std::size_t, JournalRecord>& records) {
  std::set<std::string> named;
  for (const auto& [id, r] : records) {
    if (r.file != "-") named.insert(r.file);
  }
  const auto format = run.m.tour_format.value_or(TourFormat::npy);
  const auto compression = run.m.compression.value_or(Compression::none);
  for (const auto& name : named) {
    const auto type = tour_file_type(name);
    if (type.format != format || type.compression != compression) {
      run.report.fail(name + ": not a " + file_extension(format, compression).substr(1) +
                      " file, as the manifest says this run writes");
    }
  }
  return named;
}

// Tours found in the files, by the id of the prefix they begin with.
struct ToursFound {
  std::map<std::size_t, std::uint64_t> tours, closed;
};

// Reads every tour of file `f` of `files`: a valid tour, beginning with a journaled prefix
// whose journal line names this file, found once.
void read_tour_file(const RunUnderCheck& run, const std::vector<fs::path>& files, std::uint32_t f,
                    const std::unordered_map<std::string, std::size_t>& id_of,
                    const std::map<std::size_t, JournalRecord>& records, ToursFound& found) {
  VerifyReport& report = run.report;
  const BoardShape shape = run.plan.board().shape();
  const auto length = static_cast<std::size_t>(run.plan.prefixes().length());
  const auto name = files[f].filename().string();
  TourChecker checker(shape, run.m.closed_only);
  std::vector<std::uint32_t> tour;
  std::vector<Fingerprint> prints;
  TourFileReader reader(files[f], shape);
  for (std::uint64_t row = 0; reader.next(tour); ++row) {
    const std::string where = name + " row " + std::to_string(row);
    if (auto why = checker.problem(tour)) {
      report.fail(where + ": " + *why);
      continue;
    }
    const auto it = id_of.find(key_of(tour.data(), length));
    if (it == id_of.end()) {
      report.fail(where + ": begins with no prefix of this run (" +
                  first_squares(run.plan.board(), tour, length) + ")");
      continue;
    }
    const auto rec = records.find(it->second);
    if (rec == records.end()) {
      report.fail(where + ": its prefix " + std::to_string(it->second) + " is not journaled");
      continue;
    }
    if (rec->second.file != name) {
      report.fail(where + ": its prefix " + std::to_string(it->second) + " is journaled in " +
                  rec->second.file);
      continue;
    }
    ++found.tours[it->second];
    ++report.tours;
    if (knight_move(shape, tour.back(), tour.front())) {
      ++found.closed[it->second];
      ++report.closed;
    }
    prints.push_back(fingerprint(tour, f, row));
  }
  ++report.files;
  if (auto dup = find_duplicate(prints, files, shape)) report.fail(*dup);
}

// An enumeration's tour files against its journal: every tour read (or, without
// check.read_tours, the row counts read_committed matched stand in).
void check_tour_files(const RunUnderCheck& run,
                      const std::map<std::size_t, JournalRecord>& records) {
  VerifyReport& report = run.report;
  const PrefixPlan& prefixes = run.plan.prefixes();
  // Prefix of each tour -> id, so each tour can be matched to its journal record.
  std::unordered_map<std::string, std::size_t> id_of;
  const auto length = static_cast<std::size_t>(prefixes.length());
  for (std::size_t id = 0; id < prefixes.size(); ++id) {
    const auto p = prefixes[id];
    std::vector<std::uint32_t> wide(p.begin(), p.end());
    id_of.emplace(key_of(wide.data(), length), id);
  }
  const std::set<std::string> named = named_tour_files(run, records);
  for (const auto& name : run.journal.unnamed_files) {
    run.residue(name + ": not named by any journal line (an interrupted session; $resume " +
                "removes it and redoes its prefixes)");
  }
  std::vector<fs::path> files;
  for (const auto& name : named) {
    if (run.check.read_tours && fs::exists(run.dir / name)) files.push_back(run.dir / name);
  }
  ToursFound found;
  for (std::uint32_t f = 0; f < files.size(); ++f)
    read_tour_file(run, files, f, id_of, records, found);
  if (!run.check.read_tours) report.files = named.size();
  // A lost file's prefixes are not done, as a lost checkpoint's sweep is not: --resume
  // searches them again.
  for (const auto& missing : run.journal.missing_files) {
    run.residue(missing + ": named by the journal but missing (its prefixes do not count as " +
                "done; $resume searches them again)");
  }
  for (const auto& [id, r] : records) {
    if (!run.check.read_tours) {
      add_checked(report.tours, r.tours, "journal");  // the row counts matched
      add_checked(report.closed, r.closed, "journal");
    } else if (found.tours[id] != r.tours) {
      report.fail("prefix " + std::to_string(id) + ": the journal says " + std::to_string(r.tours) +
                  " tours, the files hold " + std::to_string(found.tours[id]));
    } else if (found.closed[id] != r.closed) {
      report.fail("prefix " + std::to_string(id) + ": the journal says " +
                  std::to_string(r.closed) + " closed tours, the files hold " +
                  std::to_string(found.closed[id]));
    }
  }
}

// A complete run's manifest against its journal: every prefix of the shard journaled, and
// the totals those lines add up to.
void check_complete(const RunUnderCheck& run, const std::map<std::size_t, JournalRecord>& records) {
  VerifyReport& report = run.report;
  const PrefixPlan& prefixes = run.plan.prefixes();
  if (report.prefixes_journaled != report.prefixes) {
    for (std::size_t id = 0; id < prefixes.size(); ++id) {
      if (run.plan.in_shard(id) && !records.count(id)) {
        report.fail("the manifest says complete but prefix " + std::to_string(id) + " (" +
                    path_name(run.plan.board(), prefixes[id].data(), prefixes.length()) +
                    ") is not journaled");
        break;
      }
    }
  }
  std::uint64_t tours = 0, closed = 0;
  for (const auto& [id, r] : records) {
    add_checked(tours, r.tours, "journal");
    add_checked(closed, r.closed, "journal");
  }
  const RunManifest& m = run.m;
  if (tours != m.tours || closed != m.closed_tours || records.size() != m.prefixes_done) {
    report.fail("manifest totals (" + std::to_string(m.tours) + " tours, " +
                std::to_string(m.closed_tours) + " closed, " + std::to_string(m.prefixes_done) +
                " prefixes) differ from the journal (" + std::to_string(tours) + ", " +
                std::to_string(closed) + ", " + std::to_string(records.size()) + ")");
  }
}

}  // namespace

VerifyReport verify_run_directory(const fs::path& dir, RunCheck check) {
  if (!fs::is_directory(dir)) throw FormatError(dir.string() + " is not a run directory");
  RunManifest m;
  try {
    m = read_manifest(dir);
  } catch (const FormatError& e) {
    // A manifest that is a file but does not parse is damage found (exit 4), as one whose
    // checksum fails is; one that cannot be read as a file (a FIFO) is bad input (exit 2).
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(run_layout::manifest_path(dir), ec))) throw;
    VerifyReport report;
    report.run_directory = true;
    report.fail(e.what());
    return report;
  }
  if (m.method != Method::dfs) {
    throw UsageError(dir.string() + " holds a count by the " + to_string(m.method) +
                     " method; verify it on its own (knightstour verify " + dir.string() + ")");
  }
  if (m.sample) {
    VerifyReport report = verify_sample(dir, m);
    report.run_directory = true;
    return report;
  }
  VerifyReport report;
  report.run_directory = true;
  const Plan plan = resolve(m.request(), 1);
  if (plan.prefixes().size() != m.prefixes_in_plan) {
    report.fail("manifest says the plan has " + std::to_string(m.prefixes_in_plan) +
                " prefixes, it has " + std::to_string(plan.prefixes().size()));
    return report;
  }
  report.run_status = to_string(m.status);

  // Every journal in the directory (a merged run holds several). When every tour is read,
  // files are checked here only for being named; else their row counts stand in.
  const auto journal =
      read_committed(dir, m, std::nullopt, check.read_tours ? FileCheck::names : FileCheck::rows);
  const RunUnderCheck run{dir, m, plan, journal, check, report};
  const std::map<std::size_t, JournalRecord> records = checked_records(run);
  check_mirror_images(run, records);
  if (!m.checksums) {
    report.notes.push_back(
        "a run of manifest format 1 to 3: its manifest and journal lines carry no checksums, so "
        "an edit that keeps their sums would not be seen (a count again writes format 5)");
  }
  report.prefixes = plan.shard_prefixes();
  report.prefixes_journaled = records.size();
  report.job = job_line(m);
  for (const auto& [id, r] : records) {
    if (r.tours > 0) report.prefixes_with_tours.push_back(id);
  }
  if (run.enumerate()) {
    check_tour_files(run, records);
  } else {
    for (const auto& [id, r] : records) {
      add_checked(report.counted, r.tours, "journal");
      add_checked(report.closed, r.closed, "journal");
    }
  }
  if (m.status == RunStatus::complete) {
    check_complete(run, records);
  } else {
    report.notes.push_back("the run is incomplete: " + std::to_string(report.prefixes_journaled) +
                           " of " + std::to_string(report.prefixes) + " prefixes journaled");
  }
  return report;
}

VerifyReport verify_tour_files(const std::vector<fs::path>& files, VerifyOptions options) {
  VerifyReport report;
  std::vector<Fingerprint> prints;
  std::optional<BoardShape> common;
  for (const auto& path : files) {
    tour_file_type(path);  // a FormatError for a name that is no tour file
    BoardShape shape;
    if (options.board) {
      shape = *options.board;
    } else if (fs::exists(run_layout::manifest_path(path.parent_path()))) {
      const auto m = read_manifest(path.parent_path().empty() ? fs::path(".") : path.parent_path());
      shape = {m.rows, m.cols};
      options.closed = options.closed || m.closed_only;
    } else if (auto inferred = infer_board_shape(path)) {
      shape = *inferred;
    } else {
      throw FormatError("cannot tell the board of " + path.string() + ": give $board RxC");
    }
    if (common && !(*common == shape))
      throw FormatError(path.string() + ": a different board from the other files");
    common = shape;
  }
  if (!common) return report;
  const BoardShape shape = *common;
  TourChecker checker(shape, options.closed);
  std::vector<std::uint32_t> tour;
  for (std::uint32_t f = 0; f < files.size(); ++f) {
    TourFileReader reader(files[f], shape);
    std::uint64_t row = 0;
    for (; reader.next(tour); ++row) {
      const std::string where = files[f].string() + " row " + std::to_string(row);
      if (auto why = checker.problem(tour)) {
        report.fail(where + ": " + *why);
        continue;
      }
      if (options.start && tour.front() != *options.start) {
        report.fail(
            where + ": starts on " +
            square_name(static_cast<int>(tour.front() / static_cast<std::uint32_t>(shape.cols)),
                        static_cast<int>(tour.front() % static_cast<std::uint32_t>(shape.cols))) +
            ", not the given start");
        continue;
      }
      if (!std::equal(options.prefix.begin(), options.prefix.end(), tour.begin())) {
        report.fail(where + ": does not begin with the prefix");
        continue;
      }
      ++report.tours;
      if (shape.squares() > 1 && knight_move(shape, tour.back(), tour.front())) ++report.closed;
      prints.push_back(fingerprint(tour, f, row));
    }
    ++report.files;
  }
  if (auto dup = find_duplicate(prints, files, shape)) report.fail(*dup);
  return report;
}

void verify_disjoint(const std::vector<fs::path>& dirs, const std::vector<VerifyReport>& reports,
                     VerifyReport& total) {
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (fs::equivalent(dirs[i], dirs[j], ec)) {
        total.fail(dirs[i].string() + ": given twice (the same directory as " + dirs[j].string() +
                   ")");
        return;
      }
      if (reports[i].job != reports[j].job) continue;
      const auto& a = reports[i].prefixes_with_tours;  // both sorted: journal records by id
      const auto& b = reports[j].prefixes_with_tours;
      std::vector<std::size_t> both;
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
      if (!both.empty()) {
        total.fail(dirs[i].string() + " and " + dirs[j].string() + " both hold prefix " +
                   std::to_string(both.front()) + " of one job: its tours would count twice");
        return;
      }
    }
  }
}

}  // namespace knightstour
