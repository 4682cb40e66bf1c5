#!/usr/bin/env bash
# The frontier method over MPI ranks: mpirun -np 1, 2 and 3 give the counts of one process
# (and of OEIS), stop together, keep a run directory that resumes (also after a rank was
# killed), and refuse what they cannot do with one line.
# Usage: mpi_cli.sh path/to/knightstour path/to/mpirun
source "$(dirname "$0")/lib.sh"
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

# Known values (OEIS A001230, A165134 from a1 via the enumerator, A175881) on 2 and 3 ranks.
for n in 2 3; do
  mpi $n count 6x6 --closed
  expect_exit 0
  expect_out '^cycles +9,862 closed cycles'
  expect_out "^ranks +$n MPI processes"
  mpi $n count 6x6 --start a1 --method frontier
  expect_exit 0
  expect_out '^tours +524,486 '
done
mpi 3 count 6x15 --closed --json   # cycles past 2^64: 128-bit counts summed across ranks
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["closed_cycles"]==255967892553030600920 and j["count_bits"]==128, j' "$TMP/out" \
  || fail "6x15 closed cycles wrong over 3 ranks"

# One process's counts, field by field: one start, all starts (the shared prefix forks the
# pinned sweeps on every rank), closed, and a run that spills on every rank.
same_json 1 count 5x6 --all-starts --method frontier
same_json 2 count 5x6 --all-starts --method frontier
same_json 3 count 5x7 --all-starts --method frontier
same_json 2 count 6x6 --all-starts --total-only
same_json 2 count 5x8 --start c2 --method frontier
same_json 3 count 6x8 --closed
same_json 2 count 6x7 --closed --memory 3M
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["max_passes"] > 1 and j["spilled_bytes"] > 0, j' "$TMP/out" \
  || fail "the 6x7 run over 2 ranks did not spill"

# Only rank 0 prints: one result.
mpi 2 count 6x6 --closed
CHECKS=$((CHECKS + 1))
[ "$(grep -c '^board ' "$TMP/out")" -eq 1 ] || fail "the result was printed more than once"

# A time limit stops every rank: exit 3, no count.
mpi 2 count 8x8 --closed --time-limit 1
expect_exit 3
expect_out 'INCOMPLETE: time limit'
CHECKS=$((CHECKS + 1)); ! grep -Eq '^tours' "$TMP/out" || fail "a stopped run printed a count"
# The budget stops every rank when nothing may spill.
mpi 2 count 8x8 --closed --memory 32M --spill-dir none
expect_exit 3
expect_out 'INCOMPLETE: memory budget'

# refused REGEX: exit 2 and one line from knightstour (mpirun adds its own note that a rank
# exited nonzero).
refused() {
  expect_exit 2
  expect_no_out
  CHECKS=$((CHECKS + 1))
  [ "$(grep -c '^knightstour' "$TMP/err")" -eq 1 ] || fail "knightstour should say it once"
  expect_err "$1"
}

# A run directory over ranks: each rank keeps its share of every checkpoint in DIR/rank-<r>;
# stopped by its time limit, it resumes under the same number of ranks only. 6x10 takes
# about 0.5 s over two ranks here since sweeps are folded (mirror.hpp): a limit of 1 s no
# longer stopped it.
D="$TMP/run"
mpi 2 count 6x10 --closed --run-dir "$D" --checkpoint 0 --time-limit 0.15
expect_exit 3
expect_out "Continue with: mpirun -np 2 knightstour count --run-dir $D --resume"
CHECKS=$((CHECKS + 1))
[ -s "$D/rank-0/checkpoint-0.bin" ] && [ -s "$D/rank-1/checkpoint-0.bin" ] && [ -s "$D/ranks.json" ] \
  || fail "no checkpoint of each rank: $(ls -R "$D")"
mpi 3 count --run-dir "$D" --resume
refused 'counted over 2 MPI ranks, not 3: resume it with mpirun -np 2'
run count --run-dir "$D" --resume --progress 0
expect_usage_error 'holds a count over 2 MPI ranks: resume it with mpirun -np 2'
mpi 2 count 6x10 --closed --run-dir "$D"
refused 'already holds a run; add --resume'
mpi 2 count --run-dir "$D" --resume
expect_exit 0
expect_out '^cycles +239,187,240,144 closed cycles'   # A175881: 6x10
expect_out "^run dir +$D "
mpi 2 count --run-dir "$D" --resume --json   # a finished run: read back from the manifests
expect_exit 0
expect_json closed_cycles 239187240144
expect_json ranks 2

# A rank's share is never a count: each rank's directory and checkpoint names its rank, the
# number of ranks and the run's id, and every way of counting a share as the whole is
# refused with one line that says what works.
S="$TMP/share"
mpi 2 count 6x10 --closed --run-dir "$S" --checkpoint 0 --time-limit 0.15
expect_exit 3
CHECKS=$((CHECKS + 1))
[ -s "$S/rank-0/checkpoint-0.bin" ] && [ -s "$S/rank-1/checkpoint-0.bin" ] \
  || fail "no checkpoint of each rank: $(ls -R "$S")"
for k in 0 1; do
  run count --run-dir "$S/rank-$k" --resume --progress 0   # alone: the share as a count
  expect_usage_error "$S/rank-$k holds MPI rank $k's share of a count over 2 ranks, not a count: resume the whole run with mpirun -np 2 knightstour count --run-dir $S --resume"
done
mpi 2 count --run-dir "$S/rank-0" --resume   # a share under mpirun: not "without mpirun"
refused "holds MPI rank 0's share of a count over 2 ranks, not a count: resume the whole run with mpirun -np 2"
# a rank's checkpoint copied into the other rank's directory
cp -r "$S" "$TMP/swapped" && cp "$S/rank-0/checkpoint-0.bin" "$TMP/swapped/rank-1/"
mpi 2 count --run-dir "$TMP/swapped" --resume
refused "checkpoint-0.bin holds MPI rank 0's share of a count over 2 ranks, and this directory holds MPI rank 1's share"
# the rank directories swapped
rm -rf "$TMP/swapped" && cp -r "$S" "$TMP/swapped"
mv "$TMP/swapped/rank-0" "$TMP/swapped/r" && mv "$TMP/swapped/rank-1" "$TMP/swapped/rank-0" \
  && mv "$TMP/swapped/r" "$TMP/swapped/rank-1"
mpi 2 count --run-dir "$TMP/swapped" --resume
refused "rank-0 holds MPI rank 1's share of a count over 2 ranks, not rank 0's share"
# a rank's directory of another run of the same job
mpi 2 count 6x10 --closed --run-dir "$TMP/other" --checkpoint 0 --time-limit 0.15
rm -rf "$TMP/swapped" && cp -r "$S" "$TMP/swapped" && rm -rf "$TMP/swapped/rank-1" \
  && cp -r "$TMP/other/rank-1" "$TMP/swapped/"
mpi 2 count --run-dir "$TMP/swapped" --resume
refused "rank-1 belongs to another run \(run id [0-9a-f]{16}, not [0-9a-f]{16}\)"
# one process's checkpoint of the same job in a rank's directory, and the other way round
run count 6x10 --closed --run-dir "$TMP/single" --checkpoint 0 --time-limit 0.15 --threads 1 --progress 0
CHECKS=$((CHECKS + 1)); [ -s "$TMP/single/checkpoint-0.bin" ] || fail "one process left no checkpoint"
rm -rf "$TMP/swapped" && cp -r "$S" "$TMP/swapped" && cp "$TMP/single/checkpoint-0.bin" "$TMP/swapped/rank-0/"
mpi 2 count --run-dir "$TMP/swapped" --resume
refused "checkpoint-0.bin holds a count of one process, and this directory holds MPI rank 0's share"
cp "$TMP/single/checkpoint-0.bin" "$TMP/single-own.bin" && cp "$S/rank-0/checkpoint-0.bin" "$TMP/single/"
run count --run-dir "$TMP/single" --resume --progress 0
expect_usage_error "checkpoint-0.bin holds MPI rank 0's share of a count over 2 ranks, and this directory holds a count of one process"
run verify "$TMP/single"
expect_exit 4
expect_out "^verify: FAILED: .*holds MPI rank 0's share"
# verify: the whole run checks out; a share alone is not a count
run verify "$S"
expect_exit 0
expect_out "^checked: ranks.json: a count over 2 MPI ranks, run id [0-9a-f]{16}"
expect_out "^checked: rank-1/checkpoint-0.bin: job, owner, header and data checksums match"
run verify "$S/rank-1"
expect_exit 4
expect_out "^verify: FAILED: .*rank-1 holds MPI rank 1's share of a count over 2 ranks, not a count"
# a single process may not start a run in a directory that holds one over ranks
run count 6x10 --closed --run-dir "$S" --progress 0
expect_usage_error "already holds a run"
# after all that, the run itself resumes to the right count; one process its own
mpi 2 count --run-dir "$S" --resume
expect_exit 0
expect_out '^cycles +239,187,240,144 closed cycles'
cp "$TMP/single-own.bin" "$TMP/single/checkpoint-0.bin"
run count --run-dir "$TMP/single" --resume --progress 0
expect_exit 0
expect_out '^cycles +239,187,240,144 closed cycles'

# Saves over ranks are two-phase (stage everywhere, then commit): a rank stopped while the
# ranks saved leaves every rank holding either the old step or the new one, and --resume
# takes the newest step all hold. Both halves are rebuilt from two real checkpoints.
# step_of FILE: the step a checkpoint resumes at (verify reads its header).
step_of() { "$KT" verify "$(dirname "$1")" | sed -n "s/^checked: $(basename "$1"): .*; step \([0-9]*\),.*/\1/p"; }
# 6x30 (9 s over two ranks of one thread here), so that the resumed run below is stopped by
# its time limit: 6x15 finished within it once the engine got faster.
D="$TMP/staged"
mpi 2 count 6x30 --closed --run-dir "$D" --checkpoint 0 --time-limit 1
expect_exit 3
mkdir "$TMP/old" && cp "$D/rank-0/checkpoint-0.bin" "$TMP/old/0" && cp "$D/rank-1/checkpoint-0.bin" "$TMP/old/1"
# (with a progress line a second: rank 0 shows a finished step's exchange and slowest rank)
"$MPIRUN" -np 2 "$KT" count --run-dir "$D" --resume --checkpoint 0 --time-limit 3 --threads 1 \
  --progress 1 >"$TMP/out" 2>"$TMP/err"
CODE=$?
LAST="mpirun -np 2 knightstour count --run-dir --resume --progress 1"
expect_exit 3
expect_err 'step [0-9]+ sent [0-9.]+ GiB between ranks, rank [01] slowest \(busy [0-9.]+ s, least [0-9.]+ s\)'
NEW=$(step_of "$D/rank-0/checkpoint-0.bin")
cp "$D/rank-0/manifest.json" "$D/rank-0/sweeps.tsv" "$TMP/old/" && cp "$TMP/old/0" "$TMP/old/checkpoint-0.bin"
OLD=$(step_of "$TMP/old/checkpoint-0.bin")
CHECKS=$((CHECKS + 1))
[ -n "$OLD" ] && [ -n "$NEW" ] && [ "$NEW" -gt "$OLD" ] || fail "no two checkpoints at different steps (old '$OLD', new '$NEW')"
# stopped while committing: rank 0 committed the new step, rank 1 only staged it
cp -r "$D" "$TMP/committing"
mv "$TMP/committing/rank-1/checkpoint-0.bin" "$TMP/committing/rank-1/checkpoint-0.staged.bin"
cp "$TMP/old/1" "$TMP/committing/rank-1/checkpoint-0.bin"
# stopped while staging: rank 0 staged the new step, rank 1 had not
cp -r "$D" "$TMP/staging"
mv "$TMP/staging/rank-0/checkpoint-0.bin" "$TMP/staging/rank-0/checkpoint-0.staged.bin"
cp "$TMP/old/0" "$TMP/staging/rank-0/checkpoint-0.bin"
cp "$TMP/old/1" "$TMP/staging/rank-1/checkpoint-0.bin"
for d in committing:$NEW staging:$OLD; do
  "$MPIRUN" -np 2 "$KT" count --run-dir "$TMP/${d%:*}" --resume --threads 1 --progress 0 --json \
    >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  LAST="mpirun -np 2 knightstour count --run-dir (stopped while ${d%:*}) --resume"
  expect_exit 0
  expect_err "resuming sweep 0 at step ${d#*:} from checkpoint-0.bin"
  expect_json closed_cycles 322863244258188584511076820531771298243292346804   # A175881: 6x30
done
# checkpoints at steps no rank shares (a file removed by hand): the sweep starts again
cp "$TMP/old/1" "$D/rank-1/checkpoint-0.bin"
mpi 2 count --run-dir "$D" --resume --time-limit 1
expect_exit 3
expect_err "checkpoints of sweep 0 are at steps no rank shares"

# A rank killed outright ends the whole job (nonzero exit, no count, no rank left waiting);
# the ranks' checkpoints then resume to the right count.
D="$TMP/killed"
"$MPIRUN" -np 2 "$KT" count 6x10 --closed --run-dir "$D" --checkpoint 0 --threads 1 --progress 0 \
  >"$TMP/out" 2>"$TMP/err" &
LAUNCHER=$!
for _ in $(seq 200); do
  RANK_PIDS=$(pgrep -P "$LAUNCHER" -f "count 6x10" | tr '\n' ' ')
  [ "$(echo $RANK_PIDS | wc -w)" -eq 2 ] && [ -s "$D/rank-0/checkpoint-0.bin" ] \
    && [ -s "$D/rank-1/checkpoint-0.bin" ] && break
  sleep 0.05
done
kill -9 $(echo $RANK_PIDS | cut -d' ' -f2)
# (its sleep must not hold this script's output open)
( sleep 60; touch "$TMP/hung"; kill -9 "$LAUNCHER" ) >/dev/null 2>&1 &
WATCHDOG=$!
wait "$LAUNCHER"
CODE=$?
kill "$WATCHDOG" 2>/dev/null
sleep 1
LAST="mpirun -np 2 knightstour count 6x10 --closed --run-dir, rank 1 killed"
CHECKS=$((CHECKS + 1))
[ "$CODE" -ne 0 ] && [ ! -e "$TMP/hung" ] || fail "exit $CODE$([ -e "$TMP/hung" ] && echo ', still running after 60 s')"
CHECKS=$((CHECKS + 1)); ! grep -Eq '^(tours|cycles)' "$TMP/out" || fail "a killed run printed a count"
for pid in $RANK_PIDS; do
  CHECKS=$((CHECKS + 1))
  ! ps -o stat= -p "$pid" | grep -qv Z || fail "rank process $pid still running"
done
mpi 2 count --run-dir "$D" --resume
expect_exit 0
expect_out '^cycles +239,187,240,144 closed cycles'

# A shard of units counted over ranks merges like one process's: merge takes the directory
# of its ranks' shares, and the merged manifest lists every input. 5x6 over all starts has
# 37,568 directed open tours (the enumerator's count).
mpi 2 count 5x6 --all-starts --method frontier --shard-index 0 --shard-count 2 --run-dir "$TMP/pair0"
expect_exit 0
run count 5x6 --all-starts --method frontier --shard-index 1 --shard-count 2 --run-dir "$TMP/pair1" --progress 0
expect_exit 0
run merge "$TMP/pair0/rank-1" "$TMP/pair1" --out "$TMP/pairs-share"
expect_usage_error "rank-1 holds MPI rank 1's share of a count over 2 ranks, not a count"
run merge "$TMP/pair0" "$TMP/pair1" --out "$TMP/pairs"
expect_exit 0
expect_out '^tours +37,568$'
run count --run-dir "$TMP/pairs" --resume --progress 0 --json
expect_exit 0
expect_json tours 37568
CHECKS=$((CHECKS + 1))
python3 - "$TMP/pairs/manifest.json" "$TMP" <<'EOF' || fail "the merged manifest does not list its two inputs"
import json, os, sys
m, tmp = json.load(open(sys.argv[1])), os.path.realpath(sys.argv[2])
got = sorted((os.path.realpath(i["dir"]), i["shard_index"]) for i in m["inputs"])
assert got == [(tmp + "/pair0", 0), (tmp + "/pair1", 1)], got
EOF

# What does not run over ranks is refused.
mpi 2 count 6x6 --start a1 --method dfs
refused 'the enumerator does not run over MPI ranks'
mpi 2 enumerate 5x5 --start a1 --out "$TMP/tours"
refused 'only count runs over MPI ranks'
# One rank is a plain process.
mpi 1 count 6x6 --closed --method frontier
expect_exit 0
expect_out '^cycles +9,862 closed cycles'
CHECKS=$((CHECKS + 1)); ! grep -q '^ranks' "$TMP/out" || fail "one rank printed a ranks line"

finish
