#!/usr/bin/env bash
# count --method frontier: spilling past --memory, run directories, checkpoints, resume,
# and kill -9 in the middle of a sweep.
. "$(dirname "$0")/lib.sh"

CYCLES_6x10=239,187,240,144   # closed cycles of 6x10 (OEIS A175881)

# Past its budget a sweep spills to disk and gives the same count; with --spill-dir none it stops.
run count 6x8 --closed --start a1 --method frontier --memory 8M --progress 0
expect_exit 0
expect_out "^cycles +55,488,142 "
expect_out '^disk +[0-9.]+ GiB of classes spilled; up to [0-9]+ passes a step'
run count 6x8 --closed --start a1 --method frontier --memory 8M --spill-dir none --progress 0
expect_exit 3
expect_out 'INCOMPLETE: memory budget'
run count 6x8 --closed --start a1 --method frontier --memory 8M --spill-dir "$TMP/missing"
expect_exit 1
expect_err "cannot create a directory in $TMP/missing"
run count 6x6 --start a1 --spill-dir "$TMP"; expect_usage_error 'frontier only'
run count 6x6 --start a1 --checkpoint-every 1; expect_usage_error 'frontier only'
run count 6x6 --start a1 --method frontier --checkpoint-every 1; expect_usage_error 'needs --run-dir'
run count 6x6 --start a1 --method frontier --run-dir "$TMP/r" --checkpoint-every soon; expect_usage_error 'checkpoint-every'

# A run directory: stopped by its time limit after checkpoints, then resumed to the count.
D="$TMP/run"
run count 6x10 --closed --start a1 --method frontier --run-dir "$D" --checkpoint-every 0 \
  --time-limit 0.3 --threads 1 --progress 0
expect_exit 3
expect_out "^run dir +$D"
CHECKS=$((CHECKS + 1)); [ -s "$D/checkpoint.bin" ] && [ -s "$D/frontier.json" ] \
  || fail "no checkpoint or job file in $D: $(ls "$D")"
run count --run-dir "$D" --resume --progress 0
expect_exit 0
expect_out "^cycles +$CYCLES_6x10 "
expect_err 'resuming sweep 1 at step [0-9]+'
CHECKS=$((CHECKS + 1)); [ ! -e "$D/checkpoint.bin" ] || fail "the finished sweep's checkpoint was kept"
run count --run-dir "$D" --resume --progress 0     # finished: the count again, no work
expect_exit 0
expect_out "^cycles +$CYCLES_6x10 "
run count 6x10 --closed --start a1 --method frontier --run-dir "$D"; expect_usage_error 'not empty'
run count 6x9 --closed --start a1 --method frontier --run-dir "$D" --resume; expect_usage_error 'another count'
run count 6x6 --start a1 --method frontier --run-dir "$TMP/none" --resume; expect_usage_error 'no run to resume'

# A damaged checkpoint is refused with one line, never resumed from.
D="$TMP/damaged"
run count 6x10 --closed --start a1 --method frontier --run-dir "$D" --checkpoint-every 0 \
  --time-limit 0.3 --threads 1 --progress 0
expect_exit 3
printf '\x5a' | dd of="$D/checkpoint.bin" bs=1 seek=200 conv=notrunc status=none
run count --run-dir "$D" --resume --progress 0
expect_exit 2
expect_err 'checkpoint .* is damaged \(checksum mismatch\)'

# kill -9 in the middle of an all-starts job (one sweep per class of start squares): the
# finished sweeps are kept, the running one continues from its checkpoint, and the grid is
# the grid of an uninterrupted run.
run count 6x6 --all-starts --method frontier --json --progress 0
expect_exit 0
cp "$TMP/out" "$TMP/whole.json"
D="$TMP/killed"
"$KT" count 6x6 --all-starts --method frontier --run-dir "$D" --checkpoint-every 0 --threads 1 \
  --progress 0 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do
  if [ -s "$D/checkpoint.bin" ] && grep -q '"sweep": 2' "$D/frontier.json" 2>/dev/null; then break; fi
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
LAST="kill -9 mid-sweep"
CHECKS=$((CHECKS + 1)); grep -q '"sweep": 2' "$D/frontier.json" || fail "killed before sweep 3 finished: $(cat "$D/frontier.json")"
run count --run-dir "$D" --resume --json --progress 0
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 - "$TMP/whole.json" "$TMP/out" <<'PY' || { LAST="resumed grid"; fail "resumed grid differs"; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["tours_by_start"] == b["tours_by_start"] and a["tours"] == b["tours"] == 6637920, (a, b)
assert b["sweeps_resumed"] >= 3, b
PY
finish
