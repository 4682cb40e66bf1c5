#include "knightstour/base/threads.hpp"

#include <pthread.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "knightstour/base/errors.hpp"

namespace knightstour {

namespace {

void* wait_for(void* gate) {
  std::lock_guard lock(*static_cast<std::mutex*>(gate));
  return nullptr;
}

}  // namespace

void check_threads_can_start(int threads, std::size_t stack_bytes) {
  if (threads <= 1) return;
  pthread_attr_t attr;
  ::pthread_attr_init(&attr);
  if (stack_bytes > 0) ::pthread_attr_setstacksize(&attr, stack_bytes);
  std::mutex gate;  // held while starting, so every thread is alive until all have started
  std::vector<pthread_t> started;
  int error = 0;
  {
    std::lock_guard hold(gate);
    for (int i = 1; i < threads && error == 0; ++i) {
      pthread_t id;
      error = ::pthread_create(&id, &attr, wait_for, &gate);
      if (error == 0) started.push_back(id);
    }
  }
  for (auto id : started) ::pthread_join(id, nullptr);
  ::pthread_attr_destroy(&attr);
  if (error != 0) {
    throw IoError("cannot start " + std::to_string(threads) + " threads: " + std::strerror(error) +
                  " (lower $threads, or raise the process or memory limit)");
  }
}

}  // namespace knightstour
