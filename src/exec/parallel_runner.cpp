#include "knightstour/exec/parallel_runner.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <exception>
#include <mutex>

#include "knightstour/base/threads.hpp"

namespace knightstour {

void for_each_work_item(std::size_t n, int threads, StopControl& stop,
                        const std::function<void(std::size_t)>& body,
                        const std::function<void()>& prepare) {
  std::mutex failure_mutex;
  std::exception_ptr failure;
  // More threads than cores is allowed (a user may ask); TBB caps at the global limit.
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  check_threads_can_start(
      threads, tbb::global_control::active_value(tbb::global_control::thread_stack_size));
  tbb::task_arena arena(threads);
  arena.execute([&] {
    if (prepare) prepare();
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n, 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (auto i = range.begin(); i != range.end(); ++i) {
            if (stop.stopped()) return;
            try {
              body(i);
            } catch (...) {
              std::lock_guard lock(failure_mutex);
              if (!failure) failure = std::current_exception();
              stop.request(StopReason::failure);
              return;
            }
          }
        },
        tbb::simple_partitioner{});
  });
  if (failure) std::rethrow_exception(failure);
}

}  // namespace knightstour
