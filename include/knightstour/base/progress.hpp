#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace knightstour {

// Reports a status line every `interval` seconds from its own thread until destroyed (an
// interval of 0 turns it off). On a terminal (stderr a tty) it redraws one line in place,
// led by a bar of `fraction()` (0..1; below 0: unknown), and clears it at the end; in a
// pipe or a log it writes one spdlog info line per interval. Either only at info level.
class ProgressMonitor {
 public:
  ProgressMonitor(double interval_seconds, std::function<std::string()> status,
                  std::function<double()> fraction = {});
  ~ProgressMonitor();
  ProgressMonitor(const ProgressMonitor&) = delete;
  ProgressMonitor& operator=(const ProgressMonitor&) = delete;

 private:
  void loop();
  void redraw();

  double interval_;
  std::function<std::string()> status_;
  std::function<double()> fraction_;
  bool terminal_ = false;
  bool drawn_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

// "12.3 M", "4.56 G": three significant digits for rates and counts in log lines.
std::string human_count(double value);
std::string with_commas(std::uint64_t value);  // 1,234,567
// "shards", "prefixes".
std::string plural(const std::string& noun);
// "1 shard", "2 shards", "1,024 units": a number and its noun, plural but for one.
std::string how_many(std::uint64_t n, const std::string& noun);
// "42 s", "3 min 12 s", "2 h 05 min".
std::string human_duration(double seconds);

}  // namespace knightstour
