#!/usr/bin/env bash
# Run directories of the frontier method over MPI ranks: they resume (also after a rank was
# killed), saves are two-phase, and a rank's share is never taken for a count.
# Usage: mpi_runs_cli.sh path/to/knightstour path/to/mpirun
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/mpi_lib.sh"

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

finish
