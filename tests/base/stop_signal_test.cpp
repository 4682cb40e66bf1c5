#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <thread>

#include "knightstour/base/stop_control.hpp"

namespace knightstour {
namespace {

// Each case runs in a child process (a death test): the signal flag is process-wide.

// GNU `timeout -s INT` signals the command and then its process group: two SIGINTs back to
// back must still be one request to stop (before, the second killed the process, exit 130).
TEST(StopSignal, TwoInterruptsBackToBackAreOneStop) {
  EXPECT_EXIT(
      {
        install_stop_signal_handlers();
        std::raise(SIGINT);
        std::raise(SIGINT);
        std::exit(stop_signal_number() == SIGINT ? 7 : 1);
      },
      ::testing::ExitedWithCode(7), "");
}

// A second interrupt a while after the first is a user insisting: exit at once, 130.
TEST(StopSignal, ASecondInterruptLaterExitsAtOnce) {
  EXPECT_EXIT(
      {
        install_stop_signal_handlers();
        std::raise(SIGINT);
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        std::raise(SIGINT);
        std::exit(7);
      },
      ::testing::ExitedWithCode(130), "second interrupt, exiting now");
}

}  // namespace
}  // namespace knightstour
