#include "frontier/progress/job_progress.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "knightstour/base/process_memory.hpp"
#include "knightstour/base/progress.hpp"
#include "knightstour/base/units.hpp"

namespace knightstour::frontier_detail {

namespace {

std::string gib(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.2f" : "%.0f", value);
  return text;
}

// What the process holds now (its anonymous memory), for the sweep's line and the pass's.
std::string process_figure() {
  return ", process " + gib(static_cast<double>(anonymous_memory()) / (1024.0 * 1024 * 1024)) +
         " GiB";
}

// A step too large for memory is built in ranges of parts: first its generation is expanded
// once (pass 0), the successors of all but the first range into files, then the ranges are
// built one after another.
std::string ranges_figures(const SweepSnapshot& s) {
  if (s.passes <= 1) return "";
  if (s.pass == 0) return ", expanding into " + std::to_string(s.passes) + " ranges";
  return ", range " + std::to_string(s.pass) + "/" + std::to_string(s.passes);
}

// Over MPI ranks: the last finished step's exchange and its slowest rank (the one the others
// waited for; busy = its wall time less its time in collective calls).
std::string ranks_figures(const SweepSnapshot& s) {
  if (s.ranks_step < 0) return "";
  char text[160];
  std::snprintf(text, sizeof text,
                ", step %d sent %s GiB between ranks, rank %d slowest (busy %.2f s, least %.2f s)",
                s.ranks_step + 1, gib(s.step_exchanged_gib).c_str(), s.slowest_rank, s.slowest_busy,
                s.fastest_busy);
  return text;
}

}  // namespace

std::string JobProgress::status() const {
  const double now = elapsed();
  const auto s = watch_.snapshot();
  std::string line;
  double left = -1;
  const int planned = planned_.load();
  if (const BackwardProgress* pass = pass_.load()) {
    const auto done = pass->classes_done.load();
    const auto total = pass->classes_total.load();
    line = board_ + " the pass back over the sweep, step " +
           std::to_string(pass->steps_done.load()) + " of " +
           std::to_string(pass->steps_total.load()) + process_figure() +
           " (tours from each square, " + std::to_string(done_.load()) + " of " +
           std::to_string(planned) + " sweeps done)";
    if (done > 0 && total >= done) {
      left = (now - pass_started_.load()) * static_cast<double>(total - done) /
             static_cast<double>(done);
    }
  } else if (!s) {
    // Between two sweeps (a prefix restored, a checkpoint written, or the job stopping): the
    // line still names the sweep that is next, as every other line of the job does.
    const int done = done_.load();
    line = board_ +
           (done < planned ? " sweep " + std::to_string(done + 1) + "/" + std::to_string(planned)
                           : " all sweeps") +
           " (" + std::to_string(done) + " of " + std::to_string(planned) + " done)";
  } else {
    // Most wanted first and last: a narrow terminal cuts the middle.
    line = board_ + " sweep " + std::to_string(std::min(done_.load() + 1, planned)) + "/" +
           std::to_string(planned) + ", step " + std::to_string(s->step + 1) + "/" +
           std::to_string(s->steps) + ranges_figures(*s) + ", " +
           human_count(static_cast<double>(s->classes)) + " classes in " + gib(s->budget_gib) +
           " GiB" + process_figure() +
           (s->spilled_gib > 0 ? ", " + gib(s->spilled_gib) + " GiB spilled" : "") +
           ranks_figures(*s) + " (" + s->label + ", column " +
           std::to_string(s->step / s->width + 1) + " of " + std::to_string(s->steps / s->width) +
           ")";
    left = s->seconds_left;
  }
  int not_started = std::max(0, planned - done_.load() - (s ? 1 : 0));
  if (s && left >= 0 && pass_follows_.load() && pass_ == nullptr && not_started > 0) {
    left += now - sweep_started_.load() + s->seconds_left;  // the pass, as long as this sweep
    --not_started;
  }
  if (left >= 0 && not_started > 0) {
    const int finished = finished_here_.load();
    left = finished > 0 ? left + not_started * finished_at_.load() / finished : -1;
  }
  line += ", elapsed " + human_duration(now) + ", ETA ";
  line += left < 0 ? "unknown" : std::string("~").append(human_duration(std::max(left, 1.0)));
  return line;
}

double JobProgress::fraction() const {
  const auto s = watch_.snapshot();
  double part = s && s->steps > 0 ? static_cast<double>(s->step) / s->steps : 0;
  if (const BackwardProgress* pass = pass_.load()) {
    const auto total = pass->classes_total.load();
    part =
        total > 0 ? static_cast<double>(pass->classes_done.load()) / static_cast<double>(total) : 0;
  }
  return std::min(0.999, (done_.load() + part) / std::max(1, planned_.load()));
}

}  // namespace knightstour::frontier_detail
