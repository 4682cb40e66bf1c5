#pragma once

#include <cstddef>

namespace knightstour {

// Starts threads - 1 threads of `stack_bytes` each, all alive at once, and ends them: proof
// that a pool of that size can start. oneTBB starts its workers lazily, some from other
// workers, and a failed start there ends the process (std::terminate); calling this first
// turns a process or memory limit into an IoError ("cannot start N threads: reason") before
// any work is done.
void check_threads_can_start(int threads, std::size_t stack_bytes);

}  // namespace knightstour
