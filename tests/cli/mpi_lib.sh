# Helpers of the MPI CLI tests (mpi_cli.sh, mpi_runs_cli.sh). Source it after lib.sh;
# MPIRUN is the second argument.
MPIRUN=${2:?usage: $0 knightstour mpirun}
# Root (CI, sessions) must say so; with 2 cores, 3 ranks oversubscribe them.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpi_without_leak_detection

# mpi N ARGS... : runs knightstour on N ranks of one thread each.
mpi() {
  local n=$1
  shift
  "$MPIRUN" -np "$n" "$KT" "$@" --threads 1 --progress 0 >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  LAST="mpirun -np $n knightstour $*"
}
# same_json N ARGS... : the JSON counts of N ranks equal one process's. Both count a grid by
# pinned tails, as several ranks do (alone, or on one rank, a job may choose the backward
# pass, which expands other classes: frontier_job.hpp).
same_json() {
  local n=$1
  shift
  export KNIGHTSTOUR_GRID=tails
  "$KT" "$@" --threads 1 --progress 0 --json >"$TMP/alone" 2>/dev/null
  mpi "$n" "$@" --json
  unset KNIGHTSTOUR_GRID
  expect_exit 0
  CHECKS=$((CHECKS + 1))
  python3 - "$TMP/alone" "$TMP/out" "$n" <<'EOF' || fail "counts differ from one process's"
import json, sys
alone, ranks, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
for k in ("tours", "closed_tours", "closed_cycles", "tours_by_start", "closed_by_start",
          "status", "peak_classes"):
    assert alone[k] == ranks[k], (k, alone[k], ranks[k])
assert alone["status"] == "complete", alone["status"]
assert ranks["ranks"] == (n if n > 1 else 1), ranks["ranks"]
assert ranks["classes_expanded"] == alone["classes_expanded"], "every class expanded once"
assert (ranks["exchanged_bytes"] > 0) == (n > 1)
EOF
}

# refused REGEX: exit 2 and one line from knightstour (mpirun adds its own note that a rank
# exited nonzero).
refused() {
  expect_exit 2
  expect_no_out
  CHECKS=$((CHECKS + 1))
  [ "$(grep -c '^knightstour' "$TMP/err")" -eq 1 ] || fail "knightstour should say it once"
  expect_err "$1"
}
