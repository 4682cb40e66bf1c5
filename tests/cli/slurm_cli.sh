#!/usr/bin/env bash
# A sharded run on a real one-node Slurm cluster (scripts/slurm-local): a job array runs the
# shards, a dependent job merges them, and the merged counts equal an unsharded run.
# Needs root (it starts munged, slurmctld and slurmd, and stops them again); skipped (77)
# otherwise.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm_lib.sh"

"$ROOT/scripts/slurm/submit" --shards 4 --cpus 1 "$TMP/count" count 6x6 --all-starts >"$TMP/out" 2>"$TMP/err"
CODE=$?; LAST="submit count"; expect_exit 0; expect_out '^array job [0-9]+'
ours=$(job_ids)
"$ROOT/scripts/slurm/submit" --shards 3 --cpus 1 "$TMP/enum" enumerate 5x5 --all-starts --format text >"$TMP/out" 2>"$TMP/err"
CODE=$?; LAST="submit enumerate"; expect_exit 0
ours="$ours $(job_ids)"
# An open all-starts count of 40+ squares: the frontier method, its units of end pairs dealt
# to the shards, merged by the same merge job; --at-once caps the shards running at a time.
"$ROOT/scripts/slurm/submit" --shards 3 --at-once 1 --cpus 1 "$TMP/frontier" count 5x8 --all-starts >"$TMP/out" 2>"$TMP/err"
CODE=$?; LAST="submit frontier count"; expect_exit 0
ours="$ours $(job_ids)"
CHECKS=$((CHECKS + 1)); LAST="submit --at-once 1"
scontrol show job "$(job_ids | cut -d' ' -f1)" | grep -qE 'ArrayTaskThrottle=1( |$)' ||
  fail "the array is not throttled to 1: $(scontrol show job "$(job_ids | cut -d' ' -f1)" | grep -o 'ArrayTaskThrottle=[^ ]*' | head -1)"
"$ROOT/scripts/slurm/submit" --shards 3 --at-once 0 "$TMP/bad" count 5x8 --all-starts >"$TMP/out" 2>"$TMP/err"
CODE=$?; LAST="submit --at-once 0"; expect_exit 2; expect_err 'at-once takes a positive number'
wait_for_ours

for i in 0 1 2 3; do
  CHECKS=$((CHECKS + 1))
  [[ -e "$TMP/count/shard-$i/manifest.json" ]] || { LAST="shard $i"; fail "no shard-$i run"; }
done
# A shard's log gives the CPUs its task booked (--cpus 1), which its threads follow.
CHECKS=$((CHECKS + 1)); LAST="shard log"
grep -q "on .*, 1 CPUs booked, into" "$TMP"/count/knightstour-*_0.out || fail "$(head -2 "$TMP"/count/knightstour-*_0.out)"
run count 6x6 --all-starts --run-dir "$TMP/count/merged" --resume --json --progress 0
expect_exit 0
expect_json tours 6637920
expect_json searches 0
expect_json tours_by_start "$("$KT" count 6x6 --all-starts --json | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["tours_by_start"]))')"
run verify "$TMP/enum/merged"
expect_exit 0
expect_out 'verify: OK: 1,728 tours'
CHECKS=$((CHECKS + 1)); grep -q "verify: OK" "$TMP"/count/knightstour-merge-*.out || { LAST="merge job"; fail "merge job output"; }
# The merge job's last line says what reads the merged counts back: run as it says, it does,
# and no other line names the directory the merge was built in.
for job in count enum frontier; do
  log=$(ls "$TMP/$job"/knightstour-merge-*.out | tail -1)
  next=$(sed -n 's/^next *knightstour \([^(]*\) (.*/\1/p' "$log" | tail -1)
  CHECKS=$((CHECKS + 1)); [[ -n "$next" ]] || { LAST="merge job $job"; fail "no next line in $log"; }
  run $next --progress 0
  expect_exit 0; expect_out '^status +complete'
  CHECKS=$((CHECKS + 1)); ! grep -q 'merged\.new' "$log" || { LAST="merge job $job"; fail "names merged.new"; }
done
run count --run-dir "$TMP/frontier/merged" --resume --json --progress 0
expect_exit 0
expect_json method frontier
expect_json tours_by_start "$("$KT" count 5x8 --all-starts --json | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["tours_by_start"]))')"
CHECKS=$((CHECKS + 1)); grep -q "verify: OK" "$TMP"/frontier/knightstour-merge-*.out || { LAST="frontier merge job"; fail "merge job output"; }

# Shards stopped by a cap exit 3: Slurm cancels the merge job instead of leaving it pending,
# and submitting again without the cap finishes the shards and merges them.
"$ROOT/scripts/slurm/submit" --shards 2 --cpus 1 "$TMP/capped" count 6x6 --all-starts --max-nodes 100000 >"$TMP/out" 2>"$TMP/err"
CODE=$?; LAST="submit capped"; expect_exit 0
ours=$(job_ids)
wait_for_ours
CHECKS=$((CHECKS + 1)); [[ ! -e "$TMP/capped/merged" ]] || { LAST="capped"; fail "merged a run whose shards stopped early"; }
"$ROOT/scripts/slurm/submit" --shards 2 --cpus 1 "$TMP/capped" count 6x6 --all-starts >"$TMP/out" 2>"$TMP/err"
CODE=$?; LAST="submit again"; expect_exit 0
ours=$(job_ids)
wait_for_ours
# Every shard and the merge record their Slurm job ids, and the merged manifest lists the
# shards' (checked before a session outside Slurm becomes the manifests' latest).
CHECKS=$((CHECKS + 1))
python3 - "$TMP/capped" <<'PYEOF' || { LAST="slurm ids"; fail "Slurm job ids missing from the manifests"; }
import json, sys
d = sys.argv[1]
shards = [json.load(open(f"{d}/shard-{i}/manifest.json")) for i in (0, 1)]
merged = json.load(open(f"{d}/merged/manifest.json"))
assert all(s["slurm_job"] for s in shards), [s["slurm_job"] for s in shards]
assert merged["slurm_job"], merged["slurm_job"]
assert sorted(i["slurm_job"] for i in merged["inputs"]) == sorted(s["slurm_job"] for s in shards), merged["inputs"]
PYEOF
run count 6x6 --all-starts --run-dir "$TMP/capped/merged" --resume --json --progress 0
expect_exit 0
expect_json tours 6637920
run verify "$TMP/capped/merged"
expect_exit 0

# The frontier method over 2 MPI ranks started by srun (submit --ranks, which submits
# scripts/slurm/frontier.sbatch), where the binary has MPI: one process's counts, printed
# once; submitted again with --resume, the finished run is read back from its directory.
# frontier_result FILE TOTAL: one JSON result in FILE, over 2 ranks, TOTAL closed cycles.
frontier_result() {
  CHECKS=$((CHECKS + 1))
  python3 - "$1" "$2" <<'PYEOF' || { LAST="frontier over srun"; fail "$(head -c 600 "$1")"; }
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
assert len(lines) == 1, f"{len(lines)} results printed"
j = json.loads(lines[0])
assert j["ranks"] == 2, j
assert j["closed_cycles"] == int(sys.argv[2]) and j["status"] == "complete", j
PYEOF
}
if ldd "$KT" | grep -q libmpi; then
  mpi_without_leak_detection
  "$ROOT/scripts/slurm/submit" --ranks 2 --cpus 1 "$TMP/frontier" count 6x8 --closed --json \
    >"$TMP/out" 2>"$TMP/err"
  CODE=$?; LAST="submit --ranks 2 count 6x8"; expect_exit 0; expect_out '^frontier job [0-9]+'
  ours=$(sed -E 's/^frontier job ([0-9]+).*/\1/' "$TMP/out")
  wait_for_ours
  frontier_result "$TMP/frontier/knightstour-frontier-$ours.out" 55488142   # OEIS A175881: 6x8
  CHECKS=$((CHECKS + 1))
  [[ -s "$TMP/frontier/run/ranks.json" ]] || fail "no run directory over ranks in $TMP/frontier/run"
  "$ROOT/scripts/slurm/submit" --ranks 2 "$TMP/frontier" count --resume --json >"$TMP/out" 2>"$TMP/err"
  CODE=$?; LAST="submit --ranks 2 count --resume"; expect_exit 0
  ours=$(sed -E 's/^frontier job ([0-9]+).*/\1/' "$TMP/out")
  wait_for_ours
  frontier_result "$TMP/frontier/knightstour-frontier-$ours.out" 55488142
  "$ROOT/scripts/slurm/submit" --ranks 2 --shards 2 "$TMP/frontier" count 6x8 >"$TMP/out" 2>"$TMP/err"
  CODE=$?; LAST="submit --ranks --shards"; expect_exit 2; expect_err 'give --shards or --ranks, not both'
fi

finish
