#!/usr/bin/env bash
# The default memory budget sees the container: a frontier count inside a memory cgroup
# (v1, as these machines and many Slurm nodes mount it; v2 where that is what there is)
# takes its budget from the cgroup's limit, and completes or stops with exit 3, never
# killed by the kernel (exit 137). Needs root and a writable cgroup tree: exit 77 (skipped)
# without them.
source "$(dirname "$0")/lib.sh"

skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root: cannot make a cgroup"
V1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
if [ -n "$V1" ] && [ -d "/sys/fs/cgroup/memory$V1" ]; then
  CG="/sys/fs/cgroup/memory${V1%/}/knightstour-test-$$"
  LIMIT_FILE=memory.limit_in_bytes
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
  V2=$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
  CG="/sys/fs/cgroup${V2%/}/knightstour-test-$$"
  LIMIT_FILE=memory.max
else
  skip "no memory cgroup controller mounted"
fi
mkdir "$CG" 2>/dev/null || skip "cannot make $CG"
trap 'rmdir "$CG" 2>/dev/null; rm -rf "$TMP"' EXIT
echo $((512 << 20)) >"$CG/$LIMIT_FILE" 2>/dev/null || skip "cannot set a memory limit in $CG"

# in_cgroup ARGS... : knightstour ARGS inside the cgroup.
in_cgroup() {
  bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$CG" "$KT" "$@" \
    >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  LAST="knightstour $* (in a 512 MiB cgroup)"
}

# 7x7 from a1 holds about 2 GiB of classes at its peak: in 512 MiB it must spill (about a
# minute here; the time limit keeps the suite short, and the budget is kept from the start).
in_cgroup count 7x7 --start a1 --method frontier --progress 0 --time-limit 20 --json
CHECKS=$((CHECKS + 1))
[ "$CODE" -eq 0 ] || [ "$CODE" -eq 3 ] || fail "exit $CODE: neither complete (0) nor stopped (3)"
[ "$CODE" -ne 0 ] || expect_json tours 19023006776   # results/7x7-a1-count.txt, the enumerator's
CHECKS=$((CHECKS + 1))
budget=$(json_get memory_budget 2>/dev/null || echo 0)
[ "${budget:-0}" -gt 0 ] && [ "$budget" -le $((256 << 20)) ] \
  || fail "budget $budget bytes: not within half the cgroup's 512 MiB"
CHECKS=$((CHECKS + 1))
peak=$(json_get peak_anonymous_bytes 2>/dev/null || echo 0)
[ "${peak:-0}" -le $((512 << 20)) ] || fail "peak anonymous memory $peak bytes, past the limit"
# The log names what bounds the budget.
in_cgroup count 6x6 --closed --method frontier --progress 0 --log-level debug
expect_exit 0
expect_err "memory budget .*: half of the .* that the cgroup v[12] limit leaves"
finish
