#pragma once

namespace knightstour {

// CPUs in this process's affinity mask (as Slurm or taskset restrict it), at least 1.
int available_cpus();

}  // namespace knightstour
