# Helpers for the CLI tests. Source it; then call `check` and friends; `finish` at the end.
# Usage in a test script: KT=$1 (the binary), then run(…) and expect_*.
set -u
KT=${1:?usage: $0 path/to/knightstour}
FAILURES=0
CHECKS=0
# How much slower than a release build the binary runs (the tsan preset sets 10): scales the
# few checks that time something.
SLOWDOWN=${KNIGHTSTOUR_TEST_SLOWDOWN:-1}
# How much busier than its CPUs the machine is now: the 1-minute load over the CPUs, at least
# 1. Scales the few checks that time something in wall-clock seconds, so that other work
# beside the suite (a busy CI machine) cannot fail them.
busy() { awk -v n="$(nproc)" '{ f = $1 / n; printf "%.2f", (f > 1 ? f : 1) }' /proc/loadavg; }
# Whether the binary runs under AddressSanitizer (the asan test preset sets ASAN_OPTIONS).
under_asan() { [ -n "${ASAN_OPTIONS:-}" ]; }
# Call before starting MPI ranks: under ASan they run without leak detection, since Open MPI
# never frees some of its own allocations (ompi_op_base_op_select, and plugins it has
# unloaded, whose frames LeakSanitizer cannot name, so no suppression file can single them
# out). Every test without MPI keeps it. (sbatch and mpirun pass the environment on.)
mpi_without_leak_detection() {
  if under_asan; then export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"; fi
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run ARGS... : runs the binary, keeps stdout, stderr and the exit code.
run() {
  "$KT" "$@" >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  LAST="knightstour $*"
}

fail() {
  FAILURES=$((FAILURES + 1))
  echo "FAIL: $LAST: $*"
  echo "  stdout: $(head -c 600 "$TMP/out")"
  echo "  stderr: $(head -c 600 "$TMP/err")"
}

expect_exit() {
  CHECKS=$((CHECKS + 1))
  [ "$CODE" -eq "$1" ] || fail "exit code $CODE, expected $1"
}

# expect_out REGEX : stdout matches the extended regex.
expect_out() {
  CHECKS=$((CHECKS + 1))
  grep -Eq -- "$1" "$TMP/out" || fail "stdout does not match /$1/"
}

expect_no_out() {
  CHECKS=$((CHECKS + 1))
  [ ! -s "$TMP/out" ] || fail "stdout should be empty"
}

expect_err() {
  CHECKS=$((CHECKS + 1))
  grep -Eq -- "$1" "$TMP/err" || fail "stderr does not match /$1/"
}

# A usage error: exit 2, exactly one line on stderr (matching REGEX), nothing on stdout.
expect_usage_error() {
  expect_exit 2
  expect_no_out
  CHECKS=$((CHECKS + 1))
  [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "stderr should be one line"
  [ $# -eq 0 ] || expect_err "$1"
}

# json_get FIELD : a top-level field of the JSON on stdout (python3 json, no numpy needed).
json_get() {
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v) if isinstance(v,(list,dict,bool)) or v is None else v)' "$TMP/out" "$1"
}

expect_json() {
  CHECKS=$((CHECKS + 1))
  local got
  got=$(json_get "$1" 2>&1)
  [ "$got" = "$2" ] || fail "JSON $1 is '$got', expected '$2'"
}

finish() {
  echo "$CHECKS checks, $FAILURES failures"
  [ "$FAILURES" -eq 0 ]
}
