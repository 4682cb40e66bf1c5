#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <system_error>

#include "build_info.hpp"
#include "cli_options.hpp"
#include "commands.hpp"
#include "flag_names.hpp"
#include "knightstour/base/errors.hpp"
#include "knightstour/base/memory_room.hpp"
#include "knightstour/frontier/wide_count.hpp"
#include "mpi_world.hpp"
#include "provenance.hpp"

namespace {

constexpr const char* kUsage =
    "knightstour: count, enumerate and find knight's tours\n"
    "\n"
    "usage: knightstour COMMAND BOARD [options]     (knightstour COMMAND --help for details)\n"
    "       knightstour --version\n"
    "\n"
    "  count     BOARD --start SQ|--all-starts [--closed]   count every tour, exactly: by the\n"
    "                                                       enumerator (dfs) or, on bigger or\n"
    "                                                       longer boards, the frontier method\n"
    "                                                       (--method auto|dfs|frontier)\n"
    "  enumerate BOARD --start SQ --out DIR [--format npy|text|board] [--compress zstd]\n"
    "                                                       write every tour to files\n"
    "  find      BOARD [--start SQ] [--closed] [--method warnsdorff|backtrack]\n"
    "                                                       one tour, on a board of any size\n"
    "  verify    PATH...                                    check tour files or a run directory\n"
    "  merge     DIR... --out DIR                           combine shard runs\n"
    "  status    DIR                                        where a run, or a job's shards, stand\n"
    "  prefixes  BOARD --start SQ --split-depth D           list the work units\n"
    "  estimate  BOARD --start SQ [--closed]                time and memory a count would take\n"
    "  show      RUN_DIR|FILE [--row N] [--svg FILE]        one tour as a grid (and a picture)\n"
    "\n"
    "BOARD is RxC (rows x columns, e.g. 6x6 or 3x4) or one side (6); squares are a1 style\n"
    "(a1 bottom-left) or zero-based r,c. Exit codes: 0 complete, 1 internal or I/O failure,\n"
    "2 bad usage or input, 3 stopped early by a cap or signal (no complete count),\n"
    "4 verify found a problem, 5 find proved that no such tour exists.\n";

int dispatch(int argc, char** argv) {
  using namespace knightstour::cli;
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  const std::string command = argv[1];
  if (mpi_ranks() != nullptr && command != "count") {
    throw knightstour::UsageError(
        "only count runs over MPI ranks (with the frontier method); "
        "start '" +
        command + "' as one process");
  }
  if (command == "-h" || command == "--help" || command == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (command == "--version" || command == "version") {
    const auto& b = build_info();
    std::printf("knightstour %s (git %s, %s, %s build)\n", b.version, b.git_commit, b.compiler,
                b.build_type);
    return kExitOk;
  }
  if (command == "count") return count_command(argc - 1, argv + 1);
  if (command == "prefixes") return prefixes_command(argc - 1, argv + 1);
  if (command == "enumerate") return enumerate_command(argc - 1, argv + 1);
  if (command == "verify") return verify_command(argc - 1, argv + 1);
  if (command == "merge") return merge_command(argc - 1, argv + 1);
  if (command == "find") return find_command(argc - 1, argv + 1);
  if (command == "estimate") return estimate_command(argc - 1, argv + 1);
  if (command == "show") return show_command(argc - 1, argv + 1);
  if (command == "status") return status_command(argc - 1, argv + 1);
  throw knightstour::UsageError(
      "unknown command '" + command +
      "' (commands: count, enumerate, find, verify, merge, status, prefixes, "
      "estimate, show; see knightstour --help)");
}

}  // namespace

namespace {

// Reports an error of this rank and ends the job with `code`: alone, returns it; over MPI,
// a usage error (the same on every rank: they all read one command line) is reported by
// rank 0 and every rank leaves; any other error ends every rank at once (MPI_Abort), so that
// no rank waits for one that failed.
int fail(int code, const std::string& what, bool usage = false) {
  using namespace knightstour::cli;
  const std::string message = spell_flags(what);
  const int rank = mpi_rank();
  if (mpi_ranks() == nullptr || rank == 0) {
    std::fprintf(stderr, "knightstour: %s\n", message.c_str());
  } else if (!usage) {
    std::fprintf(stderr, "knightstour: rank %d: %s\n", rank, message.c_str());
  }
  if (usage) {
    leave_mpi();
  } else {
    abort_mpi(code);
  }
  return code;
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  using namespace knightstour;
  // Past a file size limit, write(2) should fail with EFBIG instead of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  // Before any thread starts (MPI's included): under `ulimit -v` the threads' arenas would
  // take address space the memory budget counts on.
  keep_one_arena_under_address_limits();
  try {
    cli::join_mpi(argc, argv);
  } catch (const UsageError& e) {
    return fail(cli::kExitUsage, e.what(), true);
  } catch (const std::exception& e) {
    return fail(cli::kExitFailure, e.what());
  }
  const int code = run(argc, argv);
  cli::leave_mpi();
  return code;
}

namespace {

int run(int argc, char** argv) {
  using namespace knightstour;
  try {
    cli::remember_command_line(argc, argv);
    return dispatch(argc, argv);
  } catch (const UsageError& e) {
    return fail(cli::kExitUsage, e.what(), true);
  } catch (const FormatError& e) {
    return fail(cli::kExitUsage, e.what());
  } catch (const Interrupted& e) {
    return fail(cli::kExitStopped, e.what());
  } catch (const IoError& e) {
    return fail(cli::kExitFailure, e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    // "filesystem error: cannot create directories: Permission denied [path]" without the
    // library's prefix: a file system refusal, not a bug.
    std::string what = e.what();
    const std::string prefix = "filesystem error: ";
    if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
    return fail(cli::kExitFailure, what);
  } catch (const std::system_error& e) {
    if (e.code() == std::errc::resource_unavailable_try_again) {
      return fail(cli::kExitFailure, "cannot start a thread: " + e.code().message() +
                                         " (lower --threads, or raise the process or memory "
                                         "limit)");
    }
    return fail(cli::kExitFailure, std::string("system error: ") + e.what());
  } catch (const std::bad_alloc&) {
    return fail(cli::kExitFailure, "out of memory");
  } catch (const CountTooWide&) {
    // Long boards get there: 3x600's open tours from a corner need about 1060 bits.
    return fail(cli::kExitUsage,
                "the count passes 1024 bits (about 1.8e308), the widest count knightstour "
                "keeps: the board is too big to count");
  } catch (const std::exception& e) {
    return fail(cli::kExitFailure, std::string("internal error: ") + e.what());
  }
}

}  // namespace
