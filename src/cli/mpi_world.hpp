#pragma once

#include "knightstour/frontier/ranks.hpp"

namespace knightstour::cli {

// The MPI job this process is a rank of, when an MPI launcher started it (mpirun, or srun
// with --mpi=pmix): the same binary counts alone when started by hand, and MPI is initialised
// only under a launcher (a singleton start would spawn Open MPI's helper daemon for nothing).
// Ranks other than 0 write nothing to stdout: rank 0 prints the one result.
//
// Returns nullptr when this process counts alone (no launcher, or one rank). Throws
// UsageError when a launcher started several ranks of a knightstour built without MPI,
// which would otherwise count the whole job once per rank.
Ranks* join_mpi(int& argc, char**& argv);

// The ranks join_mpi joined (nullptr when alone).
Ranks* mpi_ranks();

// This process's rank in the MPI job (0 when alone).
int mpi_rank();

// At a normal end: every rank leaves together (MPI_Finalize).
void leave_mpi();

// After an error on this rank: ends every rank of the job with `code` (MPI_Abort); does
// nothing when alone.
void abort_mpi(int code);

}  // namespace knightstour::cli
