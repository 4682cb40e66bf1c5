#include "frontier_run/merge_residues.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/frontier/frontier_job.hpp"
#include "knightstour/frontier_run/frontier_run_dir.hpp"

namespace knightstour {

namespace fs = std::filesystem;

namespace {

std::string modulo(std::uint64_t p) { return "modulo " + std::to_string(p); }

// A residue unit's manifest once it checks out as verify would check it.
FrontierManifest checked_unit(const fs::path& dir) {
  FrontierManifest m = verified_manifest(dir);
  if (m.frontier.modulus == 0) {
    throw UsageError(dir.string() +
                     " holds exact counts, not a residue unit (count $modulus P): there is "
                     "nothing to combine it with");
  }
  if (m.status != RunStatus::complete) {
    throw UsageError(dir.string() + ", the unit " + modulo(m.frontier.modulus) +
                     ", is not finished: count $run_dir " + dir.string() + " $resume");
  }
  return m;
}

// The job a unit counts, whatever its prime and owner.
std::string job_of(FrontierManifest m) {
  m.frontier.modulus = 0;
  m.frontier.run_id.clear();
  return frontier_job_key(m);
}

// One count recovered from its residues (each unit's text of it, by prime, largest first):
// the planned primes but the last give it, every other prime checks it.
class Recovery {
 public:
  Recovery(std::vector<std::uint64_t> combined, std::vector<std::uint64_t> spares)
      : combined_(std::move(combined)), spares_(std::move(spares)) {}

  BigCount operator()(const std::map<std::uint64_t, std::string>& residues,
                      const std::string& what) const {
    std::vector<std::pair<std::uint64_t, BigCount>> by_prime;
    for (const std::uint64_t p : combined_)
      by_prime.emplace_back(p, BigCount::parse(residues.at(p)));
    const BigCount count = from_residues(by_prime);
    for (const std::uint64_t s : spares_) {
      if (count % s != BigCount::parse(residues.at(s)) % s) {
        throw FormatError("the residue " + modulo(s) + " of " + what +
                          " disagrees with the others': one unit's count is wrong (count "
                          "them again); nothing was merged");
      }
    }
    return count;
  }

 private:
  std::vector<std::uint64_t> combined_;
  std::vector<std::uint64_t> spares_;
};

}  // namespace

FrontierMergeReport merge_residue_units(const std::vector<fs::path>& inputs, const fs::path& out,
                                        const Provenance& provenance) {
  std::map<std::uint64_t, FrontierManifest, std::greater<>> by_prime;
  std::map<std::uint64_t, fs::path> dir_of;
  for (const fs::path& dir : inputs) {
    FrontierManifest m = checked_unit(dir);
    const std::uint64_t p = m.frontier.modulus;
    if (!by_prime.empty() && job_of(m) != job_of(by_prime.begin()->second)) {
      throw UsageError(dir.string() + " is a unit of another count than " +
                       inputs.front().string() + " (" + m.board_name() + ")");
    }
    if (const auto [it, fresh] = dir_of.emplace(p, dir); !fresh) {
      throw UsageError("the unit " + modulo(p) + " is given twice: " + it->second.string() +
                       " and " + dir.string());
    }
    by_prime.emplace(p, std::move(m));
  }
  FrontierRequest request = FrontierRunDir::request_of(by_prime.begin()->second);
  request.modulus = 0;
  const std::vector<std::uint64_t> planned = residue_primes(request);
  std::string missing;
  for (std::size_t k = 0; k < planned.size(); ++k) {
    if (by_prime.contains(planned[k])) continue;
    missing += (missing.empty() ? "" : ", ") + std::string("unit ") + std::to_string(k) + " (" +
               modulo(planned[k]) + ")";
  }
  if (!missing.empty()) {
    throw UsageError("the residues lack a prime: this count needs " +
                     std::to_string(planned.size() - 1) + " primes and a spare; missing: " +
                     missing + " (count ... $residue_unit K $run_dir DIR for each)");
  }
  FrontierMergeReport report;
  report.inputs = inputs.size();
  report.moduli.assign(planned.begin(), planned.end() - 1);
  for (const auto& [p, m] : by_prime) {
    if (std::find(report.moduli.begin(), report.moduli.end(), p) == report.moduli.end()) {
      report.spares.push_back(p);
    }
  }
  const Recovery recover(report.moduli, report.spares);
  auto each = [&](auto&& field) {  // the field's text in every unit, by prime
    std::map<std::uint64_t, std::string> texts;
    for (const auto& [p, m] : by_prime) texts[p] = field(m.frontier);
    return texts;
  };
  const FrontierProgress& first = by_prime.begin()->second.frontier;
  const auto sweeps = [](const FrontierProgress& x) {
    std::vector<int> keys;
    for (const auto& entry : x.finished) keys.push_back(entry.first);
    return keys;
  };
  for (const auto& [p, m] : by_prime) {
    const FrontierProgress& f = m.frontier;
    if (sweeps(f) != sweeps(first) || f.tours_by_start.size() != first.tours_by_start.size()) {
      throw FormatError(dir_of.at(p).string() + " holds other sweeps or squares than " +
                        dir_of.at(by_prime.begin()->first).string() + ", a unit of the same count");
    }
  }
  FrontierReport whole;
  whole.complete = true;
  whole.tours = recover(each([](const FrontierProgress& f) { return f.tours; }), "the tours");
  whole.closed_tours =
      recover(each([](const FrontierProgress& f) { return f.closed_tours; }), "the closed tours");
  whole.cycles =
      recover(each([](const FrontierProgress& f) { return f.closed_cycles; }), "the closed cycles");
  for (std::size_t s = 0; s < first.tours_by_start.size(); ++s) {
    whole.tours_by_start.push_back(
        recover(each([&](const FrontierProgress& f) { return f.tours_by_start.at(s); }),
                "the tours from square " + std::to_string(s)));
  }
  FrontierManifest base;
  base.provenance = provenance;
  double seconds = 0;
  for (const auto& [p, m] : by_prime) {
    const auto at = std::find(planned.begin(), planned.end(), p);
    base.inputs.push_back(
        merged_input(dir_of.at(p), static_cast<int>(at - planned.begin()), m.provenance));
    seconds += m.seconds;
    report.cpu_seconds += m.cpu_seconds;
  }
  FrontierManifest merged = FrontierRunDir::new_manifest(request, base);
  merged.frontier.checkpoint_seconds = first.checkpoint_seconds;
  for (const auto& entry : first.finished) {
    const int sweep = entry.first;  // a copy: clang 14 captures no structured binding
    merged.frontier.finished[sweep] =
        recover(each([&](const FrontierProgress& f) { return f.finished.at(sweep); }),
                "sweep " + std::to_string(sweep))
            .str();
  }
  FrontierRunDir::record_outcome(merged, whole);
  merged.seconds = seconds;
  merged.cpu_seconds = report.cpu_seconds;
  report.units = report.units_done = static_cast<int>(by_prime.size());
  report.tours = whole.tours;
  report.closed_tours = whole.closed_tours;
  report.cycles = whole.cycles;
  publish_merged_run(out, merged);
  return report;
}

}  // namespace knightstour
