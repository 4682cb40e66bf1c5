#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"
#include "knightstour/run/job_runner.hpp"
#include "knightstour/run/sample_run.hpp"

namespace knightstour {
namespace {

// An enumerate's refusals name its fields ($out, $checkpoint_seconds): the CLI spells them.
TEST(JobChecks, AnEnumerateNeedsADirectoryAndCheckpoints) {
  JobRequest job;
  job.command = Command::enumerate;
  EXPECT_EQ(check(job), std::vector<std::string>{"enumerate needs $out DIR"});
  job.dir = "-";
  job.files.checkpoint_seconds = 0;
  EXPECT_EQ(check(job),
            (std::vector<std::string>{std::string(kToursNeedADirectory),
                                      "$checkpoint_seconds must be more than 0 seconds"}));
  EXPECT_THROW(run_job(job), UsageError);
  job.dir = "runs/a";
  job.files.checkpoint_seconds = 60;
  EXPECT_TRUE(check(job).empty());
  JobRequest count;  // a count needs no directory
  EXPECT_TRUE(check(count).empty());
}

TEST(JobChecks, ASampleNeedsToursAndADirectory) {
  SampleRequest sample;
  EXPECT_EQ(check(sample),
            (std::vector<std::string>{"$sample must be at least 1", "enumerate needs $out DIR"}));
  sample.tours = 5;
  sample.dir = "-";
  EXPECT_EQ(check(sample), std::vector<std::string>{std::string(kToursNeedADirectory)});
  sample.dir = "runs/sample";
  EXPECT_TRUE(check(sample).empty());
  StopControl stop(Caps{});
  sample.tours = 0;
  EXPECT_THROW(write_sample(sample, stop), UsageError);
}

}  // namespace
}  // namespace knightstour
