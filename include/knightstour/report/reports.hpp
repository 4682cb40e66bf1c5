#pragma once

#include "knightstour/count/count_result.hpp"
#include "knightstour/count/estimate.hpp"
#include "knightstour/count/merge.hpp"
#include "knightstour/count/run_standing.hpp"
#include "knightstour/count/verify.hpp"
#include "knightstour/plan/plan.hpp"
#include "knightstour/report/enumerated.hpp"
#include "knightstour/report/report.hpp"

namespace knightstour {

// Each command's result as its report: the text and the JSON of the same figures.
Report report_of(const CountResult& result);  // count: stopped unless complete
Report report_of(const Estimate& estimate);
Report report_of(const Merged& merged);             // stopped unless complete
Report report_of(const Verdict& verdict);           // failed unless ok
Report report_of(const EnumerateSummary& summary);  // stopped unless complete
Report report_of(const SampleSummary& summary);
// status: failed when a root's shards are not one set, unreadable when a run does not read.
Report report_of(const Standing& standing);
// prefixes: the plan's work units (this shard's), one a line after a header.
Report report_of(const Plan& plan);

}  // namespace knightstour
