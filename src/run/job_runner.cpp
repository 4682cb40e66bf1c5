#include "knightstour/run/job_runner.hpp"

#include <spdlog/spdlog.h>

#include "knightstour/base/cpus.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/exec/count_sink.hpp"
#include "knightstour/run/run_session.hpp"

namespace knightstour {

std::vector<std::string> check(const JobRequest& job) {
  std::vector<std::string> refusals;
  if (job.command != Command::enumerate) return refusals;
  if (!job.dir) refusals.emplace_back("enumerate needs $out DIR");
  if (job.dir && (job.dir->empty() || *job.dir == "-")) refusals.emplace_back(kToursNeedADirectory);
  if (job.files.checkpoint_seconds <= 0) {
    refusals.emplace_back("$checkpoint_seconds must be more than 0 seconds");
  }
  return refusals;
}

JobOutcome run_job(const JobRequest& job) {
  refuse_first(check(job));
  const int threads = job.threads > 0 ? job.threads : default_threads();
  ExecOptions exec{threads, job.progress_seconds, job.largest_first};
  JobOutcome out;
  if (!job.dir) {
    const Plan plan = resolve(job.request, threads);
    StopControl stop(job.caps);
    CountSink sink(job.tour_symmetries ? &plan.board() : nullptr);
    Ledger nothing_kept;
    out.request = plan.request();
    out.report = run_plan(plan, sink, nothing_kept, exec, stop);
    return out;
  }
  RunSession session({*job.dir, job.resume, job.command, job.request, threads, job.caps, job.format,
                      job.compression, job.files, job.provenance});
  for (const auto& note : session.cleaned()) spdlog::info("resume: {}", note);
  out.cleaned = session.cleaned();
  StopControl stop(job.caps);
  out.request = session.plan().request();
  out.dir = session.dir();
  if (job.command == Command::enumerate) {
    TourFileSink sink(session, session.files());
    out.report = run_plan(session.plan(), sink, session, exec, stop);
    out.files = sink.stats();
    out.format = session.format();
    out.compression = session.compression();
  } else {
    CountSink sink(job.tour_symmetries ? &session.plan().board() : nullptr);
    out.report = run_plan(session.plan(), sink, session, exec, stop);
  }
  session.finish(out.report);
  return out;
}

}  // namespace knightstour
